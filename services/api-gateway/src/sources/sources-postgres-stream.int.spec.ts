import { randomBytes } from 'node:crypto';
import { GatewayHarness } from '../testing/gateway-harness';
import {
  USER_POSTGRES_URL,
  userPostgres,
  type UserPostgres,
} from '../../../source-consumer/src/testing/user-postgres';

jest.setTimeout(60_000);

/**
 * A db_change_stream source of type postgres through the API: checked against the database (the
 * local cluster on 5433) on create, its publication and slot created when asked, its connection
 * string sealed and never returned; what cannot work is a 400 naming the field.
 */
describe('db_change_stream sources of type postgres', () => {
  const h = new GatewayHarness();
  let p: Awaited<ReturnType<GatewayHarness['createProject']>>;
  let user: UserPostgres;
  beforeAll(async () => {
    await h.start({
      HOOKRAIL_ENCRYPTION_KEY: 'cdc-postgres-test-key',
      HOOKRAIL_ALLOW_PRIVATE_BROKERS: 'true',
    });
    p = await h.createProject('incoming');
    user = await userPostgres('CREATE TABLE orders (id text PRIMARY KEY)');
  });
  afterAll(async () => {
    await user.drop();
    await h.stop();
  });

  const create = (over: Record<string, unknown> = {}) =>
    h.call('POST', `/v1/projects/${p.id}/sources`, {
      key: p.key,
      body: {
        name: `cdc-${randomBytes(3).toString('hex')}`,
        type: 'db_change_stream',
        db_change_stream: {
          type: 'postgres',
          connection_string: USER_POSTGRES_URL,
          database: user.name,
          publication: 'hookrail',
          slot: `${user.name}_slot`,
          tables: ['orders'],
          ...over,
        },
      },
    });

  it('refuses a missing publication, then creates both with create_if_missing: 201, connection string never returned', async () => {
    const missing = await create();
    expect(missing.status).toBe(400);
    expect(missing.body.data.errors).toEqual([
      {
        field: 'db_change_stream.publication',
        message: `no publication "hookrail" in database "${user.name}" (or set create_if_missing)`,
      },
    ]);
    const res = await create({ create_if_missing: true, operations: ['insert', 'truncate'] });
    expect(res.status).toBe(201);
    expect(res.body.data.db_change_stream).toEqual({
      type: 'postgres',
      database: user.name,
      publication: 'hookrail',
      slot: `${user.name}_slot`,
      tables: ['orders'],
      operations: ['insert', 'truncate'],
      create_if_missing: true,
      restart_requested_at: null,
    });
    expect(JSON.stringify(res.body.data)).not.toContain('5433');
    expect(await user.sql("SELECT slot_name FROM pg_replication_slots WHERE slot_name LIKE 'cdc_%'")).toEqual(
      [{ slot_name: `${user.name}_slot` }],
    );
  });

  it.each([
    ['a MongoDB-only field', { collections: ['orders'] }, 'db_change_stream.collections'],
    ['a MongoDB-only operation', { operations: ['replace'] }, 'db_change_stream.operations.0'],
    ['a missing table', { tables: ['nope'] }, 'db_change_stream.tables'],
    ['a bad slot name', { slot: 'Bad-Slot' }, 'db_change_stream.slot'],
    [
      'wrong credentials',
      { connection_string: USER_POSTGRES_URL.replace(':postgres@', ':wrong@') },
      'db_change_stream.connection_string',
    ],
  ])('refuses %s with a 400 naming the field', async (_what, over, field) => {
    const res = await create({ create_if_missing: true, ...over });
    expect(res.status).toBe(400);
    const errors = res.body.data.errors as { field: string }[];
    expect(errors.map((e) => e.field)).toContain(field);
  });
});
