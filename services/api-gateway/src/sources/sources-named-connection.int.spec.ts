import { randomBytes } from 'node:crypto';
import { GatewayHarness } from '../testing/gateway-harness';
import { USER_MONGODB_URL, userDatabase } from '../../../source-consumer/src/testing/user-database';

jest.setTimeout(60_000);

/**
 * A db_change_stream source may name a connection the operator configured
 * (HOOKRAIL_CHANGE_STREAM_CONNECTIONS; the chart takes each string from a Secret) instead of
 * carrying the string: only the projects listed with it may use it, and the string is never stored
 * with the source nor returned.
 */
describe('db_change_stream sources naming an operator-configured connection', () => {
  const h = new GatewayHarness();
  let p: Awaited<ReturnType<GatewayHarness['createProject']>>;
  let user: Awaited<ReturnType<typeof userDatabase>>;
  beforeAll(async () => {
    await h.start({
      HOOKRAIL_ENCRYPTION_KEY: 'cdc-named-test-key',
      HOOKRAIL_ALLOW_PRIVATE_BROKERS: 'true',
      HOOKRAIL_CHANGE_STREAM_CONNECTIONS: JSON.stringify([
        { name: 'shop', projects: ['*'] },
        { name: 'elsewhere', projects: ['01HZZZZZZZZZZZZZZZZZZZZZZZ'] },
      ]),
      HOOKRAIL_CHANGE_STREAM_CONNECTION_SHOP: USER_MONGODB_URL,
      HOOKRAIL_CHANGE_STREAM_CONNECTION_ELSEWHERE: USER_MONGODB_URL,
    });
    p = await h.createProject('incoming');
    user = await userDatabase(['orders']);
  });
  afterAll(async () => {
    await user.drop();
    await h.stop();
  });

  const cdc = (over: Record<string, unknown>) => ({
    type: 'mongodb',
    database: user.name,
    collections: ['orders'],
    ...over,
  });
  const create = (over: Record<string, unknown>) =>
    h.call('POST', `/v1/projects/${p.id}/sources`, {
      key: p.key,
      body: {
        name: `cdc-${randomBytes(3).toString('hex')}`,
        type: 'db_change_stream',
        db_change_stream: cdc(over),
      },
    });
  const update = (id: string, over: Record<string, unknown>) =>
    h.call('PUT', `/v1/projects/${p.id}/sources/${id}`, {
      key: p.key,
      body: { db_change_stream: cdc(over) },
    });

  it('creates a source on a named connection, checked against its database, the string stored nowhere', async () => {
    const res = await create({ connection: 'shop' });
    expect(res.status).toBe(201);
    expect(res.body.data.db_change_stream).toMatchObject({ type: 'mongodb', connection: 'shop' });
    const stored = await h.store.sources.findById(p.id, res.body.data.uid);
    expect(stored?.db_change_stream).toMatchObject({ connection: 'shop' });
    expect(stored?.db_change_stream).not.toHaveProperty('connection_string');
    expect(JSON.stringify(res.body.data)).not.toContain('27018');
  });

  it('keeps the named connection on an update that gives none, and trades it for a string given', async () => {
    const id = (await create({ connection: 'shop' })).body.data.uid as string;
    const kept = await update(id, { operations: ['insert'] });
    expect(kept.status).toBe(202);
    expect(kept.body.data.db_change_stream).toMatchObject({ connection: 'shop', operations: ['insert'] });
    const own = await update(id, { connection_string: USER_MONGODB_URL });
    expect(own.status).toBe(202);
    expect(own.body.data.db_change_stream).not.toHaveProperty('connection');
    const stored = await h.store.sources.findById(p.id, id);
    expect(
      String((stored?.db_change_stream as { connection_string?: string }).connection_string),
    ).not.toContain('27018');
  });

  it.each([
    [
      'a connection not configured',
      { connection: 'nope' },
      'db_change_stream.connection',
      'no connection "nope"',
    ],
    [
      "a connection another project's",
      { connection: 'elsewhere' },
      'db_change_stream.connection',
      'not available to this project',
    ],
    [
      'both a connection and a string',
      { connection: 'shop', connection_string: USER_MONGODB_URL },
      'db_change_stream.connection',
      'not allowed with connection_string',
    ],
    ['neither', {}, 'db_change_stream.connection_string', 'is required'],
    ['a name that is not one', { connection: 'Shop DB' }, 'db_change_stream.connection', ''],
  ])('refuses %s with a 400 naming the field', async (_what, over, field, message) => {
    const res = await create(over);
    expect(res.status).toBe(400);
    expect(res.body.data.errors[0].field).toBe(field);
    expect(res.body.data.errors[0].message).toContain(message);
  });
});
