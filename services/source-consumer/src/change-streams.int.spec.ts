import { waitFor, type RecordedRequest } from '@hookrail/testkit';
import type { SourceDoc } from '@hookrail/store';
import { BrokerStack } from './testing/broker-stack';
import { USER_MONGODB_URL, userDatabase } from './testing/user-database';

jest.setTimeout(90_000);

interface ChangeBody {
  operation: string;
  database: string;
  collection: string;
  document_key: { _id: string };
  document: Record<string, unknown> | null;
  update_description: { updated_fields: Record<string, unknown>; removed_fields: string[] } | null;
}

/**
 * db_change_stream sources end to end on the real servers: changes committed to the user's
 * database (the replica-set SecantusDB on 27018) become signed webhooks through source-consumer
 * and dispatcher, in commit order (the subscription orders by endpoint) and once each.
 */
describe('db_change_stream source (mongodb)', () => {
  const stack = new BrokerStack();
  const databases: Awaited<ReturnType<typeof userDatabase>>[] = [];
  // A database per test: the sources of earlier tests keep running and watch only their own.
  let user: Awaited<ReturnType<typeof userDatabase>>;
  beforeAll(() => stack.setUp());
  beforeEach(async () => {
    user = await userDatabase(['orders', 'customers']);
    databases.push(user);
  });
  afterAll(async () => {
    await stack.tearDown();
    await Promise.all(databases.map((d) => d.drop()));
  });

  const createCdc = async (over: Record<string, unknown>): Promise<SourceDoc> => {
    const source = await stack.createSource(
      {},
      {
        type: 'db_change_stream',
        pub_sub: null,
        db_change_stream: {
          type: 'mongodb',
          connection_string: USER_MONGODB_URL,
          database: user.name,
          ...over,
        },
      },
      'incoming',
      { ordering: { mode: 'endpoint', key: null, unblock_on: [] } },
    );
    await stack.waitState(source, 'consuming');
    return source;
  };
  /** The changes delivered for documents whose `_id` starts with `prefix`, in arrival order. */
  const delivered = (prefix: string): ChangeBody[] =>
    stack.receiver.requests
      .map((r: RecordedRequest) => JSON.parse(r.body) as ChangeBody)
      .filter((b) => b.database === user.name && String(b.document_key?._id).startsWith(prefix));
  const waitDelivered = (prefix: string, count: number) =>
    waitFor(`${count} changes of ${prefix}`, () => (delivered(prefix).length >= count ? true : undefined), {
      timeoutMs: 30_000,
      intervalMs: 100,
    });
  const eventTypes = async (source: SourceDoc) =>
    (await stack.store.events.list(source.project_id, { sourceId: source._id }, 100)).map(
      (e) => e.event_type,
    );

  it('delivers insert, update, replace and delete once each, in commit order, in the documented shape', async () => {
    const source = await createCdc({ collections: ['orders'] });
    const orders = user.db.collection<{ _id: string; total?: number; note?: string }>('orders');
    await orders.insertOne({ _id: 'a-1', total: 1, note: 'x' });
    await orders.updateOne({ _id: 'a-1' }, { $set: { total: 2 }, $unset: { note: '' } });
    await orders.replaceOne({ _id: 'a-1' }, { total: 3 });
    await orders.deleteOne({ _id: 'a-1' });
    await user.db.collection<{ _id: string }>('customers').insertOne({ _id: 'a-customer' }); // not watched
    await orders.insertOne({ _id: 'a-2', total: 9 });
    await orders.updateOne({ _id: 'a-2' }, { $inc: { total: 1 } });
    await waitDelivered('a-', 6);
    await new Promise((r) => setTimeout(r, 1500)); // a second copy of any would arrive by now
    const got = delivered('a-');
    expect(got.map((b) => `${b.document_key._id}:${b.operation}`)).toEqual([
      'a-1:insert',
      'a-1:update',
      'a-1:replace',
      'a-1:delete',
      'a-2:insert',
      'a-2:update',
    ]);
    expect(got[0]).toMatchObject({ collection: 'orders', document: { _id: 'a-1', total: 1, note: 'x' } });
    expect(got[1].update_description).toEqual({ updated_fields: { total: 2 }, removed_fields: ['note'] });
    // updateLookup reads the document when the change is read, not as the update left it: a-1 may
    // already be replaced or deleted by then (a fast reader sees it as updated); a-2 is never deleted.
    expect([null, { _id: 'a-1', total: 2 }, { _id: 'a-1', total: 3 }]).toContainEqual(got[1].document);
    expect(got[5].document).toEqual({ _id: 'a-2', total: 10 });
    expect(got[2]).toMatchObject({ document: { _id: 'a-1', total: 3 }, update_description: null });
    expect(got[3].document).toBeNull();
    const types = await waitFor('6 events recorded', async () => {
      const t = await eventTypes(source);
      return t.length === 6 ? t : undefined;
    });
    // Caught up: the lag gauge of the source reads 0.
    const metrics = await (await fetch(`${stack.consumerUrl}/metrics`)).text();
    expect(metrics).toMatch(
      new RegExp(`hookrail_change_stream_lag_seconds\\{source_id="${source._id}"[^}]*\\} 0\\n`),
    );
    expect(types.sort()).toEqual([
      'orders.delete',
      'orders.insert',
      'orders.insert',
      'orders.replace',
      'orders.update',
      'orders.update',
    ]);
  });

  it('watches the whole database, keeps only the chosen operations and names events by the template', async () => {
    const source = await createCdc({
      operations: ['insert'],
      event_type_template: 'shop.{collection}.{operation}',
    });
    await user.db.collection<{ _id: string; n?: number }>('orders').insertOne({ _id: 'b-order' });
    await user.db.collection<{ _id: string; n?: number }>('customers').insertOne({ _id: 'b-customer' });
    await user.db
      .collection<{ _id: string; n?: number }>('customers')
      .updateOne({ _id: 'b-customer' }, { $set: { n: 1 } });
    await waitDelivered('b-', 2);
    await new Promise((r) => setTimeout(r, 1500));
    expect(delivered('b-').map((b) => `${b.collection}:${b.operation}`)).toEqual([
      'orders:insert',
      'customers:insert',
    ]);
    const types = await waitFor('2 events recorded', async () => {
      const t = await eventTypes(source);
      return t.length === 2 ? t : undefined;
    });
    expect(types.sort()).toEqual(['shop.customers.insert', 'shop.orders.insert']);
  });

  it('ends a stream whose database is dropped with an error on the source, and the process goes on: another source starts and streams', async () => {
    const dropped = await createCdc({ collections: ['orders'] });
    await user.db.collection('orders').insertOne({ _id: 'drop-1' } as never);
    await waitDelivered('drop-1', 1);
    await user.db.dropDatabase();
    // An invalidated stream answers at once, forever: looping on it starved the whole process.
    await stack.waitState(dropped, 'unreachable');
    const health = await stack.store.sourceHealth.find(dropped.project_id, dropped._id);
    expect(health?.error).toMatch(/ended the change stream/);
    user = await userDatabase(['orders']);
    databases.push(user);
    await createCdc({ collections: ['orders'] });
    await user.db.collection('orders').insertOne({ _id: 'after-drop-1' } as never);
    await waitDelivered('after-drop-1', 1);
  });

  it('stops reading when disabled and resumes from the stored point when enabled', async () => {
    const source = await createCdc({ collections: ['orders'] });
    const orders = user.db.collection<{ _id: string }>('orders');
    await orders.insertOne({ _id: 'c-1' });
    await waitDelivered('c-', 1);
    await stack.updateSource(source, { is_disabled: true });
    await stack.waitState(source, 'stopped');
    await orders.insertMany([{ _id: 'c-2' }, { _id: 'c-3' }]);
    await new Promise((r) => setTimeout(r, 1500));
    expect(delivered('c-')).toHaveLength(1);
    await stack.updateSource(source, { is_disabled: false });
    await stack.waitState(source, 'consuming');
    await waitDelivered('c-', 3);
    await new Promise((r) => setTimeout(r, 1500));
    expect(delivered('c-').map((b) => b.document_key._id)).toEqual(['c-1', 'c-2', 'c-3']);
  });

  it('gives a change read again the same idempotency key, so it is recorded as a duplicate and not sent again', async () => {
    const source = await createCdc({ collections: ['orders'] });
    const orders = user.db.collection<{ _id: string }>('orders');
    await orders.insertOne({ _id: 'd-1' });
    await waitDelivered('d-', 1);
    const first = await waitFor('the first change stored as the resume point', async () => {
      const o = await stack.store.changeStreamOffsets.find(source._id);
      return o?.token ? o : undefined;
    });
    await orders.insertMany([{ _id: 'd-2' }, { _id: 'd-3' }]);
    await waitDelivered('d-', 3);
    // Rewind: the stream restarts from the first change and reads d-2 and d-3 again.
    await stack.updateSource(source, { is_disabled: true });
    await stack.waitState(source, 'stopped');
    await stack.store.changeStreamOffsets.save(source.project_id, source._id, first.token, null);
    await stack.updateSource(source, { is_disabled: false });
    await stack.waitState(source, 'consuming');
    await orders.insertOne({ _id: 'd-4' });
    await waitDelivered('d-', 4);
    await new Promise((r) => setTimeout(r, 1500));
    expect(delivered('d-').map((b) => b.document_key._id)).toEqual(['d-1', 'd-2', 'd-3', 'd-4']);
    const events = await waitFor('7 events recorded (3 of them duplicates)', async () => {
      const all = await stack.store.events.list(source.project_id, { sourceId: source._id }, 100);
      return all.length === 7 ? all : undefined;
    });
    expect(events.filter((e) => e.is_duplicate_event)).toHaveLength(3);
  });
});
