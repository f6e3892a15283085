import {
  changeStreamSettings,
  oplogChangesBehind,
  type MongoChangeStreamSettings,
} from '@hookrail/change-streams';
import type { Timestamp } from 'mongodb';
import { USER_MONGODB_URL, userDatabase } from './testing/user-database';

/**
 * A MongoDB source's changes behind, counted in the user's server's oplog (the local replica set
 * on 27018): only the entries after the newest change read, of the source's collections and
 * operations.
 */
describe('oplogChangesBehind', () => {
  let user: Awaited<ReturnType<typeof userDatabase>>;
  let after: Timestamp;
  beforeAll(async () => {
    user = await userDatabase(['orders', 'other']);
    const orders = user.db.collection<{ _id: number; n?: number }>('orders');
    await orders.insertOne({ _id: 0 });
    const [newest] = await user.db
      .client!.db('local')
      .collection<{ ts: Timestamp }>('oplog.rs')
      .find()
      .sort({ $natural: -1 })
      .limit(1)
      .toArray();
    after = newest.ts;
    await orders.insertMany([1, 2, 3, 4, 5].map((i) => ({ _id: i })));
    await user.db.collection<{ _id: number }>('other').insertMany([1, 2, 3].map((i) => ({ _id: i })));
    await orders.updateOne({ _id: 1 }, { $set: { n: 1 } });
    await orders.updateOne({ _id: 2 }, { $set: { n: 2 } });
    await orders.deleteOne({ _id: 3 });
  });
  afterAll(() => user.drop());

  const settings = (over: Record<string, unknown>) =>
    changeStreamSettings(
      { type: 'mongodb', database: user.name, ...over },
      USER_MONGODB_URL,
      true,
    ) as MongoChangeStreamSettings;

  it.each([
    ['the source collection, every operation', { collections: ['orders'] }, 8],
    ['inserts only', { collections: ['orders'], operations: ['insert'] }, 5],
    ['every collection of the database', {}, 11],
    ['nothing for another database', { database: 'no-such-db' }, 0],
  ])('counts %s after the newest change read', async (_what, over, expected) => {
    expect(await oplogChangesBehind(settings(over), after)).toBe(expected);
  });

  it('is 0 for a stream that has read everything (no newest change)', async () => {
    expect(await oplogChangesBehind(settings({ collections: ['orders'] }), undefined)).toBe(0);
  });
});
