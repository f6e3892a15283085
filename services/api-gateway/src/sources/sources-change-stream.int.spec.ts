import { randomBytes } from 'node:crypto';
import { GatewayHarness } from '../testing/gateway-harness';
import {
  STANDALONE_MONGODB_URL,
  USER_MONGODB_URL,
  userDatabase,
} from '../../../source-consumer/src/testing/user-database';

jest.setTimeout(60_000);

/**
 * A db_change_stream source is checked against its database on create and update (the local
 * replica-set SecantusDB on 27018); its connection string is sealed at rest and never returned.
 */
describe('db_change_stream sources: settings checked against the database', () => {
  const h = new GatewayHarness();
  let p: Awaited<ReturnType<GatewayHarness['createProject']>>;
  let user: Awaited<ReturnType<typeof userDatabase>>;
  beforeAll(async () => {
    await h.start({
      HOOKRAIL_ENCRYPTION_KEY: 'cdc-sources-test-key',
      HOOKRAIL_ALLOW_PRIVATE_BROKERS: 'true',
    });
    p = await h.createProject('incoming');
    user = await userDatabase(['orders']);
  });
  afterAll(async () => {
    await user.drop();
    await h.stop();
  });

  const create = (cdc: Record<string, unknown> | undefined, type = 'db_change_stream') =>
    h.call('POST', `/v1/projects/${p.id}/sources`, {
      key: p.key,
      body: {
        name: `cdc-${randomBytes(3).toString('hex')}`,
        type,
        ...(cdc ? { db_change_stream: cdc } : {}),
      },
    });
  const cdc = (over: Record<string, unknown> = {}) => ({
    type: 'mongodb',
    connection_string: USER_MONGODB_URL,
    database: user.name,
    collections: ['orders'],
    ...over,
  });

  it('creates a source whose stream opens: 201, connection string sealed and never returned', async () => {
    const res = await create(
      cdc({ operations: ['insert', 'delete'], match: { 'fullDocument.total': { $gt: 0 } } }),
    );
    expect(res.status).toBe(201);
    const s = res.body.data;
    expect(s.db_change_stream).toEqual({
      type: 'mongodb',
      database: user.name,
      collections: ['orders'],
      operations: ['insert', 'delete'],
      match: { 'fullDocument.total': { $gt: 0 } },
      restart_requested_at: null,
    });
    expect(JSON.stringify(s)).not.toContain('27018');
    const stored = await h.store.sources.findById(p.id, s.uid);
    expect(JSON.stringify(stored?.db_change_stream)).not.toContain(USER_MONGODB_URL);
    const got = await h.call('GET', `/v1/projects/${p.id}/sources/${s.uid}`, { key: p.key });
    expect(JSON.stringify(got.body.data)).not.toContain('27018');
  });

  it('records a restart from now as the time it was asked, kept across later updates', async () => {
    const s = (await create(cdc())).body.data;
    const put = (body: Record<string, unknown>) =>
      h.call('PUT', `/v1/projects/${p.id}/sources/${s.uid}`, { key: p.key, body });
    const restarted = await put({ db_change_stream: cdc({ restart_from_now: true }) });
    expect(restarted.status).toBe(202);
    const at = restarted.body.data.db_change_stream.restart_requested_at as string;
    expect(Date.parse(at)).toBeGreaterThan(0);
    const later = await put({ db_change_stream: cdc({ operations: ['insert'] }) });
    expect(later.body.data.db_change_stream.restart_requested_at).toBe(at);
  });

  it('stores where the stream stood at the create as its start, taken anew only by a restart from now, never returned', async () => {
    const s = (await create(cdc())).body.data;
    const startOf = async () =>
      JSON.stringify((await h.store.sources.findById(p.id, s.uid))?.db_change_stream?.start_token);
    const created = await startOf();
    expect(created).toMatch(/"_data":"[0-9a-f]+"/);
    const put = (body: Record<string, unknown>) =>
      h.call('PUT', `/v1/projects/${p.id}/sources/${s.uid}`, { key: p.key, body });
    await user.db.collection('orders').insertOne({ moved: true }); // the server's position moves on
    expect((await put({ db_change_stream: cdc({ operations: ['insert'] }) })).status).toBe(202);
    expect(await startOf()).toBe(created);
    const restarted = await put({ db_change_stream: cdc({ restart_from_now: true }) });
    expect(restarted.status).toBe(202);
    expect(await startOf()).not.toBe(created);
    expect(JSON.stringify(restarted.body.data)).not.toContain('start_token');
  });

  it("reads the consumer's state and lag in health: resume_lost a state of its own", async () => {
    const s = (await create(cdc())).body.data;
    const health = async () =>
      (await h.call('GET', `/v1/projects/${p.id}/sources/${s.uid}`, { key: p.key })).body.data.health;
    await h.store.sourceHealth.report(p.id, s.uid, 'consuming', null, 'replica-1');
    await h.store.sourceHealth.reportLag(p.id, s.uid, {
      lag_seconds: 2.5,
      behind_bytes: null,
      behind_changes: 7,
    });
    expect(await health()).toMatchObject({
      state: 'consuming',
      lag_seconds: 2.5,
      behind_bytes: null,
      behind_changes: 7,
    });
    await h.store.sourceHealth.report(p.id, s.uid, 'resume_lost', 'resume point lost (…)', 'replica-1');
    // The lag of a stream that does not read is unknown, not its last figure.
    expect(await health()).toMatchObject({
      state: 'resume_lost',
      error: 'resume point lost (…)',
      lag_seconds: null,
      behind_bytes: null,
      behind_changes: null,
    });
  });

  it('keeps the stored connection string on an update that leaves it out (the edit form cannot send it back)', async () => {
    const s = (await create(cdc())).body.data;
    const { connection_string: _kept, ...without } = cdc({ restart_from_now: true, operations: ['insert'] });
    const res = await h.call('PUT', `/v1/projects/${p.id}/sources/${s.uid}`, {
      key: p.key,
      body: { db_change_stream: without },
    });
    expect(res.status).toBe(202);
    expect(res.body.data.db_change_stream).toMatchObject({ operations: ['insert'] });
    expect(Date.parse(res.body.data.db_change_stream.restart_requested_at as string)).toBeGreaterThan(0);
    const stored = await h.store.sources.findById(p.id, s.uid);
    const sealed = String((stored?.db_change_stream as { connection_string?: string }).connection_string);
    expect(sealed).not.toBe('undefined');
    expect(sealed).not.toContain('27018');
    // A source turned into a change stream has none stored: the update must give one.
    const http = (await create(undefined, 'http')).body.data;
    const turned = await h.call('PUT', `/v1/projects/${p.id}/sources/${http.uid}`, {
      key: p.key,
      body: { type: 'db_change_stream', db_change_stream: without },
    });
    expect(turned.status).toBe(400);
    expect(turned.body.data.errors[0].field).toBe('db_change_stream.connection_string');
  });

  it.each([
    [
      'a standalone server',
      { connection_string: STANDALONE_MONGODB_URL },
      'db_change_stream.connection_string',
      'change streams need a replica set',
    ],
    [
      'a missing collection',
      { collections: ['orders', 'nope'] },
      'db_change_stream.collections',
      'no collection "nope"',
    ],
    [
      'a $match the server refuses',
      { match: { $nope: 1 } },
      'db_change_stream.match',
      'refused the change stream',
    ],
    [
      'an unreachable server',
      { connection_string: 'mongodb://127.0.0.1:1/?serverSelectionTimeoutMS=500' },
      'db_change_stream.connection_string',
      'cannot connect',
    ],
    ['an unknown operation', { operations: ['truncate'] }, 'db_change_stream.operations.0', ''],
    ['a bad full_document', { full_document: 'always' }, 'db_change_stream.full_document', ''],
    [
      'a non-mongodb connection string',
      { connection_string: 'postgres://x' },
      'db_change_stream.connection_string',
      '',
    ],
  ])('refuses %s with a 400 naming the field', async (_what, over, field, message) => {
    const res = await create(cdc(over));
    expect(res.status).toBe(400);
    const errors = res.body.data.errors as { field: string; message: string }[];
    expect(errors.map((e) => e.field)).toContain(field);
    expect(errors.find((e) => e.field === field)?.message).toContain(message);
  });

  it('refuses a db_change_stream source without its settings, and the settings on another type', async () => {
    const missing = await create(undefined);
    expect(missing.status).toBe(400);
    expect(missing.body.data.errors[0].field).toBe('db_change_stream');
    const misplaced = await create(cdc(), 'http');
    expect(misplaced.status).toBe(400);
    expect(misplaced.body.data.errors[0].field).toBe('db_change_stream');
  });
});

/** The user's database obeys the broker sources' address rule (docs/sources.md): private hosts only when allowed. */
describe('db_change_stream sources: private hosts refused unless the deployment allows them', () => {
  const h = new GatewayHarness();
  let p: Awaited<ReturnType<GatewayHarness['createProject']>>;
  beforeAll(async () => {
    await h.start({
      HOOKRAIL_ENCRYPTION_KEY: 'cdc-private-test-key',
      HOOKRAIL_ALLOW_PRIVATE_BROKERS: 'false',
    });
    p = await h.createProject('incoming');
  });
  afterAll(() => h.stop());

  it.each([
    ['a loopback IP literal', USER_MONGODB_URL],
    ['a name resolving to loopback', 'mongodb://localhost:27018/?replicaSet=secantus'],
  ])('refuses %s with a 400 on the connection string', async (_what, url) => {
    const res = await h.call('POST', `/v1/projects/${p.id}/sources`, {
      key: p.key,
      body: {
        name: `cdc-private-${randomBytes(3).toString('hex')}`,
        type: 'db_change_stream',
        db_change_stream: { type: 'mongodb', connection_string: url, database: 'shop' },
      },
    });
    expect(res.status).toBe(400);
    const errors = res.body.data.errors as { field: string; message: string }[];
    expect(errors[0].field).toBe('db_change_stream.connection_string');
    expect(errors[0].message).toContain('private, loopback or link-local addresses are not allowed');
  });
});
