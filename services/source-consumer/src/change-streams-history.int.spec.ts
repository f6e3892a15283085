import { waitFor } from '@hookrail/testkit';
import { MongoClient } from 'mongodb';
import { BrokerStack } from './testing/broker-stack';
import { SmallOplogMongo } from './testing/small-oplog-mongo';

jest.setTimeout(90_000);

/**
 * A resume point the database no longer holds (its oplog keeps 5 entries here) is an error state
 * on the source, never a silent skip; the operator's "restart from now" reads on from now.
 */
describe('db_change_stream source whose resume point fell out of the oplog', () => {
  const stack = new BrokerStack();
  let server: SmallOplogMongo;
  beforeAll(async () => {
    await stack.setUp();
    server = await SmallOplogMongo.start();
  });
  afterAll(async () => {
    await stack.tearDown();
    await server.stop();
  });

  it('shows the error on the source instead of skipping, and restarts from now when asked', async () => {
    const client = await MongoClient.connect(server.url, { serverSelectionTimeoutMS: 5000 });
    try {
      const orders = client.db('shop').collection<{ _id: string }>('orders');
      await orders.insertOne({ _id: 'seed' });
      const settings = {
        type: 'mongodb',
        connection_string: server.url,
        database: 'shop',
        collections: ['orders'],
      };
      const source = await stack.createSource(
        {},
        { type: 'db_change_stream', pub_sub: null, db_change_stream: settings },
      );
      await stack.waitState(source, 'consuming');
      await orders.insertOne({ _id: 'kept' });
      await waitFor('the first change delivered', () => (delivered('kept').length > 0 ? true : undefined));
      await stack.updateSource(source, { is_disabled: true });
      await stack.waitState(source, 'stopped');
      // More than the 1,000 writes after which the server prunes its oplog to 5 entries.
      await orders.insertMany(Array.from({ length: 1100 }, (_, n) => ({ _id: `gone-${n}` })));
      await stack.updateSource(source, { is_disabled: false });
      const health = await stack.waitState(source, 'unreachable');
      expect(health.error).toContain('resume point lost');
      await new Promise((r) => setTimeout(r, 1000));
      expect((await stack.store.sourceHealth.find(source.project_id, source._id))?.state).toBe('unreachable');
      expect(delivered('gone-')).toHaveLength(0);

      await stack.updateSource(source, {
        db_change_stream: { ...settings, restart_requested_at: new Date().toISOString() },
      });
      await stack.waitState(source, 'consuming');
      await orders.insertOne({ _id: 'after' });
      await waitFor('the change after the restart delivered', () =>
        delivered('after').length > 0 ? true : undefined,
      );
      expect(delivered('gone-')).toHaveLength(0);
    } finally {
      await client.close();
    }
  });

  const delivered = (prefix: string) =>
    stack.receiver.requests.filter((r) => {
      const b = JSON.parse(r.body) as { document_key?: { _id?: string } };
      return String(b.document_key?._id).startsWith(prefix);
    });
});
