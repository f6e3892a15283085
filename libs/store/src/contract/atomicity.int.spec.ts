import { newId, newProjectId } from '@hookrail/domain';
import type { Connection } from 'mongoose';
import { connectMongo } from '../connection';
import type { DeliveryDoc } from '../deliveries/delivery.schema';
import { attempt, deliveryDoc } from '@hookrail/testkit';
import { openContractDb, scratch, type ContractDb } from './contract-db';

// Several clients (connections) racing on the same documents, as replicas of a service do.
// Contended journaled writes are slow on some servers (SecantusDB: ~20 ms each), hence the sizes.
const CLIENTS = 4;

describe('store contract: atomic updates under concurrency', () => {
  let db: ContractDb;
  const clients: Connection[] = [];

  beforeAll(async () => {
    db = await openContractDb('contract-atomicity');
    for (let i = 0; i < CLIENTS; i++) clients.push(await connectMongo(db.url, { appName: `client-${i}` }));
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await db?.close();
  });

  const col = <T extends { _id: string }>(client: Connection, name: string) => client.db!.collection<T>(name);

  it('keeps every one of 200 concurrent $inc updates of one document', async () => {
    const name = scratch(db.conn, 'inc').collectionName;
    type Counter = { _id: string; n: number };
    await col<Counter>(clients[0], name).insertOne({ _id: 'counter', n: 0 });
    await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        col<Counter>(clients[i % CLIENTS], name).updateOne({ _id: 'counter' }, { $inc: { n: 1 } }),
      ),
    );
    expect((await col<Counter>(clients[0], name).findOne({ _id: 'counter' }))?.n).toBe(200);
  });

  it('hands each of 100 documents to exactly one of 3 clients claiming with findOneAndUpdate', async () => {
    const name = scratch(db.conn, 'claim').collectionName;
    type Job = { _id: string; owner: string | null };
    const ids = Array.from({ length: 100 }, (_, i) => `job-${String(i).padStart(3, '0')}`);
    await col<Job>(clients[0], name).insertMany(ids.map((_id) => ({ _id, owner: null })));
    const claimed = new Map<string, string[]>();
    await Promise.all(
      clients.slice(0, 3).map(async (client, c) => {
        const owner = `client-${c}`;
        for (;;) {
          const doc = await col<Job>(client, name).findOneAndUpdate(
            { owner: null },
            { $set: { owner } },
            { returnDocument: 'after' },
          );
          if (!doc) return;
          claimed.set(doc._id, [...(claimed.get(doc._id) ?? []), owner]);
        }
      }),
    );
    const doubles = [...claimed.entries()].filter(([, owners]) => owners.length > 1);
    expect(doubles).toEqual([]);
    expect([...claimed.keys()].sort()).toEqual(ids);
    // what each client was told is what is stored
    for (const d of await col<Job>(clients[0], name).find({}).toArray())
      expect(claimed.get(d._id)).toEqual([d.owner]);
  });

  /** Stores `d`, records 100 failed attempts of it at once, and reads it back. */
  const failConcurrently = async (d: DeliveryDoc) => {
    await db.store.deliveries.insertManyIfAbsent([d]);
    await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        db.store.deliveries.recordOutcomes([
          {
            delivery: d,
            status: 'Retry',
            reason: 'HTTP 500',
            nextAttemptAt: new Date(),
            attempt: attempt(`a-${i}`),
            retrySpent: true,
            firstRecord: false,
          },
        ]),
      ),
    );
    return db.store.deliveries.findById(d.project_id, d._id);
  };

  it('keeps every $inc and $push of 100 concurrent deliveries.recordOutcomes on one delivery', async () => {
    const projectId = newProjectId();
    const d = deliveryDoc(projectId, { event_id: newId(), endpoint_id: newId() });
    const stored = await failConcurrently(d);
    expect(stored?.attempts_made).toBe(100);
    expect(stored?.retries_used).toBe(100);
    expect(new Set(stored?.attempts.map((a) => a.uid)).size).toBe(100);
  });

  it('keeps every one of 100 concurrent failed retries of one delivery in Retry (appended beside it)', async () => {
    const projectId = newProjectId();
    const d = deliveryDoc(projectId, {
      event_id: newId(),
      endpoint_id: newId(),
      status: 'Retry',
      attempts_made: 1,
      retries_used: 1,
      attempts: [attempt('first')],
    });
    const stored = await failConcurrently(d);
    expect(stored?.attempts_made).toBe(101);
    expect(stored?.retries_used).toBe(101);
    expect(new Set(stored?.attempts.map((a) => a.uid)).size).toBe(101);
  });
});
