import type { MetaMessage } from '@hookrail/bus';
import type { SourceDoc } from '@hookrail/store';
import { waitFor } from '@hookrail/testkit';
import { MongoClient } from 'mongodb';
import { BrokerStack } from './testing/broker-stack';
import { UserMongoServer } from './testing/user-mongo-server';
import { userPostgres } from './testing/user-postgres';

jest.setTimeout(90_000);

/**
 * A resume point the database no longer holds (its oplog keeps 5 entries here; a dropped slot) is a
 * state of its own on the source, `resume_lost`, with a `source.resume_lost` meta event, never a
 * silent skip; the operator's "restart from now" reads on from now.
 */
describe('db_change_stream source whose resume point is lost', () => {
  const stack = new BrokerStack();
  const meta: MetaMessage[] = [];
  let server: UserMongoServer;
  beforeAll(async () => {
    await stack.setUp();
    await stack.bus.consume('test-meta', { topic: 'meta', handle: async (m) => void meta.push(m) });
    server = await UserMongoServer.start({ oplogMaxEntries: 5 });
  });
  /** The source's `source.*` meta events once one of `type` arrived (the lost state is told once). */
  const metaOf = async (source: SourceDoc, type: string) => {
    const mine = () => meta.filter((m) => (m.data as { source_id?: string }).source_id === source._id);
    await waitFor(`${type} meta event`, () => (mine().some((m) => m.event_type === type) ? true : undefined));
    return mine();
  };
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
      const health = await stack.waitState(source, 'resume_lost');
      expect(health.error).toContain('resume point lost');
      const told = await metaOf(source, 'source.resume_lost');
      expect(told.map((m) => m.event_type)).toEqual(['source.resume_lost']);
      expect(told[0].data).toMatchObject({ error: health.error });
      await new Promise((r) => setTimeout(r, 1000));
      expect((await stack.store.sourceHealth.find(source.project_id, source._id))?.state).toBe('resume_lost');
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

  it('shows a dropped postgres slot as resume_lost too, with its meta event', async () => {
    const user = await userPostgres('CREATE TABLE orders (id text PRIMARY KEY);');
    try {
      const source = await stack.createSource(
        {},
        {
          type: 'db_change_stream',
          pub_sub: null,
          db_change_stream: user.sourceSettings(),
        },
      );
      await stack.waitState(source, 'consuming');
      await user.dropSlot(`${user.name}_slot`);
      const health = await stack.waitState(source, 'resume_lost', 30_000);
      expect(health.error).toContain('no longer exists');
      expect((await metaOf(source, 'source.resume_lost')).map((m) => m.event_type)).toContain(
        'source.resume_lost',
      );
    } finally {
      await user.drop();
    }
  });

  const delivered = (prefix: string) =>
    stack.receiver.requests.filter((r) => {
      const b = JSON.parse(r.body) as { document_key?: { _id?: string } };
      return String(b.document_key?._id).startsWith(prefix);
    });
});
