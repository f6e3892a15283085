import { waitFor, type RecordedRequest } from '@hookrail/testkit';
import type { SourceDoc } from '@hookrail/store';
import { BrokerStack } from './testing/broker-stack';
import { adminSql, userPostgres, type UserPostgres } from './testing/user-postgres';

jest.setTimeout(90_000);

interface ChangeBody {
  operation: string;
  database: string;
  schema: string;
  table: string;
  key: Record<string, unknown> | null;
  row: Record<string, unknown> | null;
  old_row: Record<string, unknown> | null;
  commit_lsn: string;
  commit_time: string;
}

const TABLES =
  'CREATE TABLE orders (id text PRIMARY KEY, total int, note text, paid_at timestamptz);' +
  'CREATE TABLE customers (id text PRIMARY KEY);' +
  'CREATE TABLE audit (id text PRIMARY KEY, what text); ALTER TABLE audit REPLICA IDENTITY FULL;';

/**
 * db_change_stream sources of type postgres end to end on the real servers: rows committed to
 * the user's database (the local cluster on 5433) become webhooks through source-consumer and
 * dispatcher, once each and in commit order.
 */
describe('db_change_stream source (postgres)', () => {
  const stack = new BrokerStack();
  const databases: UserPostgres[] = [];
  let user: UserPostgres;
  beforeAll(() => stack.setUp());
  beforeEach(async () => {
    user = await userPostgres(TABLES);
    databases.push(user);
  });
  afterAll(async () => {
    await stack.tearDown();
    await Promise.all(databases.map((d) => d.drop()));
  });

  const createCdc = async (over: Record<string, unknown> = {}): Promise<SourceDoc> => {
    const source = await stack.createSource(
      {},
      {
        type: 'db_change_stream',
        pub_sub: null,
        db_change_stream: user.sourceSettings(over),
      },
      'incoming',
      { ordering: { mode: 'endpoint', key: null, unblock_on: [] } },
    );
    await stack.waitState(source, 'consuming');
    return source;
  };
  const delivered = (): ChangeBody[] =>
    stack.receiver.requests
      .map((r: RecordedRequest) => JSON.parse(r.body) as ChangeBody)
      .filter((b) => b.database === user.name);
  const waitDelivered = (count: number) =>
    waitFor(`${count} changes of ${user.name}`, () => (delivered().length >= count ? true : undefined), {
      timeoutMs: 30_000,
      intervalMs: 100,
    });
  const summary = () => delivered().map((b) => `${b.table}:${b.operation}:${String(b.key?.id ?? '')}`);

  it('delivers insert, update, delete and truncate once each, in commit order, in the documented shape', async () => {
    const source = await createCdc({ tables: ['orders', 'public.audit'] });
    await user.sql("INSERT INTO orders VALUES ('a-1', 1, 'x', '2027-01-15T08:00:00Z')");
    await user.sql("UPDATE orders SET total = 2, note = NULL WHERE id = 'a-1'");
    await user.sql("INSERT INTO customers VALUES ('c-1')"); // not a watched table
    await user.sql(
      "BEGIN; INSERT INTO orders VALUES ('a-2', 5); INSERT INTO audit VALUES ('u-1', 'x'); DELETE FROM orders WHERE id = 'a-1'; COMMIT",
    );
    await user.sql("UPDATE audit SET what = 'y' WHERE id = 'u-1'");
    await user.sql('TRUNCATE orders');
    await waitDelivered(7);
    await new Promise((r) => setTimeout(r, 1500)); // a second copy of any would arrive by now
    expect(summary()).toEqual([
      'orders:insert:a-1',
      'orders:update:a-1',
      'orders:insert:a-2',
      'audit:insert:u-1',
      'orders:delete:a-1',
      'audit:update:u-1',
      'orders:truncate:',
    ]);
    const got = delivered();
    expect(got[0]).toMatchObject({
      schema: 'public',
      key: { id: 'a-1' },
      row: { id: 'a-1', total: 1, note: 'x', paid_at: '2027-01-15T08:00:00.000Z' },
      old_row: null,
      commit_lsn: expect.stringMatching(/^[0-9A-F]+\/[0-9A-F]+$/),
    });
    expect(Date.parse(got[0].commit_time)).not.toBeNaN();
    expect(got[1]).toMatchObject({ row: { id: 'a-1', total: 2, note: null }, old_row: null });
    // One transaction: one commit LSN; a delete carries the key (replica identity default)…
    expect(new Set(got.slice(2, 5).map((b) => b.commit_lsn)).size).toBe(1);
    expect(got[4]).toMatchObject({ key: { id: 'a-1' }, row: null, old_row: null });
    // …an update of a REPLICA IDENTITY FULL table the old row too.
    expect(got[5]).toMatchObject({ old_row: { id: 'u-1', what: 'x' }, row: { id: 'u-1', what: 'y' } });
    expect(got[6]).toMatchObject({ key: null, row: null, old_row: null });
    const types = await waitFor('7 events recorded', async () => {
      const all = await stack.store.events.list(source.project_id, { sourceId: source._id }, 100);
      return all.length === 7 ? all.map((e) => e.event_type) : undefined;
    });
    expect(types.sort()).toEqual([
      'audit.insert',
      'audit.update',
      'orders.delete',
      'orders.insert',
      'orders.insert',
      'orders.truncate',
      'orders.update',
    ]);
  });

  it('keeps only the chosen operations and names events by the template', async () => {
    const source = await createCdc({
      operations: ['insert'],
      event_type_template: 'shop.{schema}.{table}.{operation}',
    });
    await user.sql("INSERT INTO customers VALUES ('b-1')");
    await user.sql("DELETE FROM customers WHERE id = 'b-1'");
    await user.sql("INSERT INTO orders VALUES ('b-2', 1)");
    await waitDelivered(2);
    await new Promise((r) => setTimeout(r, 1500));
    expect(summary()).toEqual(['customers:insert:b-1', 'orders:insert:b-2']);
    const types = await waitFor('2 events recorded', async () => {
      const all = await stack.store.events.list(source.project_id, { sourceId: source._id }, 100);
      return all.length === 2 ? all.map((e) => e.event_type) : undefined;
    });
    expect(types.sort()).toEqual(['shop.public.customers.insert', 'shop.public.orders.insert']);
  });

  it('stops reading when disabled (the slot is released) and resumes from the stored position when enabled', async () => {
    const source = await createCdc({ tables: ['orders'] });
    const slot = `${user.name}_slot`;
    await user.sql("INSERT INTO orders VALUES ('c-1', 1)");
    await waitDelivered(1);
    await stack.updateSource(source, { is_disabled: true });
    await stack.waitState(source, 'stopped');
    await waitFor('the slot released', async () => {
      const rows = await adminSql('SELECT active FROM pg_replication_slots WHERE slot_name = $1', [slot]);
      return rows[0]?.active === false ? true : undefined;
    });
    await user.sql("INSERT INTO orders VALUES ('c-2', 2), ('c-3', 3)");
    await new Promise((r) => setTimeout(r, 1500));
    expect(summary()).toEqual(['orders:insert:c-1']);
    await stack.updateSource(source, { is_disabled: false });
    await stack.waitState(source, 'consuming');
    await waitDelivered(3);
    await new Promise((r) => setTimeout(r, 1500));
    expect(summary()).toEqual(['orders:insert:c-1', 'orders:insert:c-2', 'orders:insert:c-3']);
  });

  it('restarts from now: the changes its slot still held are skipped, the next ones delivered', async () => {
    const source = await createCdc({ tables: ['orders'] });
    await user.sql("INSERT INTO orders VALUES ('e-1', 1)");
    await waitDelivered(1);
    await stack.updateSource(source, { is_disabled: true });
    await stack.waitState(source, 'stopped');
    await user.sql("INSERT INTO orders VALUES ('e-2', 2)"); // kept by the slot, then skipped
    await stack.updateSource(source, {
      is_disabled: false,
      db_change_stream: { ...source.db_change_stream, restart_requested_at: new Date().toISOString() },
    });
    await stack.waitState(source, 'consuming');
    await user.sql("INSERT INTO orders VALUES ('e-3', 3)");
    await waitDelivered(2);
    await new Promise((r) => setTimeout(r, 1500));
    expect(summary()).toEqual(['orders:insert:e-1', 'orders:insert:e-3']);
  });

  it('shows a dropped slot as the resume_lost state, and restarts from now when asked', async () => {
    const source = await createCdc({ tables: ['orders'] });
    await user.sql("INSERT INTO orders VALUES ('d-1', 1)");
    await waitDelivered(1);
    await user.dropSlot(`${user.name}_slot`);
    // The terminated connection is an outage first; the reconnection finds the slot gone.
    const health = await stack.waitState(source, 'resume_lost');
    expect(health.error).toMatch(/replication slot "cdc_\w+_slot" no longer exists/);
    await user.sql("INSERT INTO orders VALUES ('d-2', 2)"); // lost with the slot
    await new Promise((r) => setTimeout(r, 1500));
    expect((await stack.store.sourceHealth.find(source.project_id, source._id))?.state).toBe('resume_lost');
    await stack.updateSource(source, {
      db_change_stream: { ...source.db_change_stream, restart_requested_at: new Date().toISOString() },
    });
    await stack.waitState(source, 'consuming');
    await user.sql("INSERT INTO orders VALUES ('d-3', 3)");
    await waitDelivered(2);
    await new Promise((r) => setTimeout(r, 1500));
    expect(summary()).toEqual(['orders:insert:d-1', 'orders:insert:d-3']);
  });
});
