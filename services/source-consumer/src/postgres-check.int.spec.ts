import { changeStreamSettings, checkChangeStream } from '@hookrail/change-streams';
import { sparePort } from '@hookrail/testkit';
import { tempPostgres } from './testing/temp-postgres';
import { adminSql, USER_POSTGRES_URL, userPostgres, type UserPostgres } from './testing/user-postgres';

jest.setTimeout(60_000);

/**
 * What the API's check (libs/change-streams checkChangeStream) says of postgres settings, against
 * the real local cluster: each bad input is a problem naming the field, with the server's words.
 */
describe('postgres db_change_stream settings check', () => {
  let user: UserPostgres;
  beforeAll(async () => {
    user = await userPostgres(
      'CREATE TABLE orders (id text PRIMARY KEY, total int); CREATE TABLE customers (id text PRIMARY KEY);' +
        'CREATE PUBLICATION pub_orders FOR TABLE orders;',
    );
    await user.sql("SELECT pg_create_logical_replication_slot('slot_ok', 'pgoutput')");
    await adminSql("DROP ROLE IF EXISTS cdc_norepl; CREATE ROLE cdc_norepl LOGIN PASSWORD 'norepl'");
  });
  afterAll(async () => {
    await user.drop();
    await adminSql('DROP ROLE IF EXISTS cdc_norepl');
  });

  const check = (over: Record<string, unknown>, url = USER_POSTGRES_URL, allowPrivate = true) =>
    checkChangeStream(
      changeStreamSettings(
        { type: 'postgres', database: user.name, publication: 'pub_orders', slot: 'slot_ok', ...over },
        url,
        allowPrivate,
      ),
    );
  const withCredentials = (userInfo: string) => USER_POSTGRES_URL.replace(/\/\/[^@]*@/, `//${userInfo}@`);

  it('accepts settings whose publication, slot and tables exist', async () => {
    await expect(check({ tables: ['orders', 'public.orders'] })).resolves.toBeUndefined();
  });

  it('names the field of each missing object', async () => {
    expect(await check({ tables: ['nope'] })).toEqual({
      field: 'db_change_stream.tables',
      message: `no table "public.nope" in database "${user.name}"`,
    });
    expect(await check({ tables: ['customers'] })).toEqual({
      field: 'db_change_stream.tables',
      message: 'the publication "pub_orders" does not publish "public.customers"',
    });
    expect(await check({ publication: 'pub_missing' })).toMatchObject({
      field: 'db_change_stream.publication',
      message: expect.stringContaining('no publication "pub_missing"'),
    });
    expect(await check({ slot: 'slot_missing' })).toMatchObject({
      field: 'db_change_stream.slot',
      message: expect.stringContaining('no replication slot "slot_missing"'),
    });
    expect(await check({ database: 'no_such_db' })).toMatchObject({
      field: 'db_change_stream.database',
      message: expect.stringContaining('"no_such_db" does not exist'),
    });
  });

  it('creates the publication and the slot when create_if_missing', async () => {
    await expect(
      check({ publication: 'pub_new', slot: 'slot_new', tables: ['customers'], create_if_missing: true }),
    ).resolves.toBeUndefined();
    expect(await user.sql("SELECT tablename FROM pg_publication_tables WHERE pubname = 'pub_new'")).toEqual([
      { tablename: 'customers' },
    ]);
    expect(
      await adminSql("SELECT plugin, database FROM pg_replication_slots WHERE slot_name = 'slot_new'"),
    ).toEqual([{ plugin: 'pgoutput', database: user.name }]);
  });

  it('refuses wrong credentials, an unreachable server and a role without REPLICATION', async () => {
    expect(await check({}, withCredentials('postgres:wrong'))).toMatchObject({
      field: 'db_change_stream.connection_string',
      message: expect.stringMatching(/refused the credentials: .*password authentication failed/),
    });
    expect(await check({}, `postgres://postgres:postgres@127.0.0.1:${await sparePort()}/x`)).toMatchObject({
      field: 'db_change_stream.connection_string',
      message: expect.stringMatching(/cannot connect to 127\.0\.0\.1:\d+\/cdc_\w+: .*ECONNREFUSED/),
    });
    expect(await check({}, withCredentials('cdc_norepl:norepl'))).toEqual({
      field: 'db_change_stream.connection_string',
      message:
        'the role "cdc_norepl" may not replicate: ALTER ROLE "cdc_norepl" REPLICATION (or connect as a role that has it)',
    });
  });

  it('refuses a server whose wal_level is not logical', async () => {
    const server = await tempPostgres(['wal_level=replica']);
    try {
      expect(await check({ database: 'postgres' }, server.url)).toEqual({
        field: 'db_change_stream.connection_string',
        message:
          'the server runs with wal_level=replica; logical replication needs wal_level=logical (postgresql.conf, then a restart)',
      });
    } finally {
      await server.stop();
    }
  });

  it('refuses a loopback address unless private hosts are allowed', async () => {
    expect(await check({}, USER_POSTGRES_URL, false)).toMatchObject({
      field: 'db_change_stream.connection_string',
      message: expect.stringContaining('127.0.0.1'),
    });
    // A name is resolved by the guarded lookup on the socket node-postgres opens.
    expect(await check({}, USER_POSTGRES_URL.replace('127.0.0.1', 'localhost'), false)).toMatchObject({
      field: 'db_change_stream.connection_string',
      message: expect.stringMatching(
        /^cannot connect to localhost:5433\/cdc_\w+: refused to connect to localhost .*not allowed$/,
      ),
    });
  });

  it("refuses the other type's fields and operations, and a connection string of the other type", async () => {
    expect(await check({ collections: ['orders'] })).toEqual({
      field: 'db_change_stream.collections',
      message: 'is only for type mongodb, not postgres',
    });
    expect(await check({ operations: ['insert', 'replace'] })).toEqual({
      field: 'db_change_stream.operations.1',
      message: '"replace" is not an operation of postgres (insert, update, delete, truncate)',
    });
    expect(await check({}, 'mongodb://127.0.0.1:27018/')).toMatchObject({
      field: 'db_change_stream.connection_string',
    });
    expect(await check({ slot: undefined })).toEqual({
      field: 'db_change_stream.slot',
      message: 'is required for type postgres',
    });
  });
});
