import { newId, newProjectId } from '@hookrail/domain';
import type { mongo } from 'mongoose';
import type { DeliveryOutcome } from '../deliveries/delivery-outcome';
import { attempt, deliveryDoc, eventDoc } from '@hookrail/testkit';
import { openContractDb, scratch, type ContractDb } from './contract-db';

interface Doc {
  _id: string;
  kind: string;
  n: number;
  tags: string[];
  note?: string;
}

describe('store contract: bulk writes', () => {
  let db: ContractDb;
  beforeAll(async () => {
    db = await openContractDb('contract-bulk');
  });
  afterAll(async () => {
    await db?.close();
  });

  it('applies every one of 1,000 mixed operations of one unordered bulkWrite', async () => {
    const col = scratch(db.conn, 'mixed') as unknown as mongo.Collection<Doc>;
    const id = (i: number) => `d-${String(i).padStart(4, '0')}`;
    // 400 existing documents: updates work on 0..299, deletes on 300..399
    await col.insertMany(
      Array.from({ length: 400 }, (_, i) => ({ _id: id(i), kind: 'seed', n: 0, tags: [] })),
    );
    const expected = new Map<string, Doc>();
    for (let i = 0; i < 400; i++) expected.set(id(i), { _id: id(i), kind: 'seed', n: 0, tags: [] });

    const ops: mongo.AnyBulkWriteOperation<Doc>[] = [];
    for (let i = 0; i < 1000; i++) {
      const k = i % 6;
      if (k === 0) {
        const doc = { _id: id(1000 + i), kind: 'inserted', n: i, tags: [] };
        ops.push({ insertOne: { document: doc } });
        expected.set(doc._id, doc);
      } else if (k === 1) {
        const target = id(i % 300);
        ops.push({ updateOne: { filter: { _id: target }, update: { $set: { note: `set-${i}` } } } });
        expected.get(target)!.note = `set-${i}`;
      } else if (k === 2) {
        const target = id(i % 300);
        ops.push({ updateOne: { filter: { _id: target }, update: { $push: { tags: `t-${i}` } } } });
        expected.get(target)!.tags.push(`t-${i}`);
      } else if (k === 3) {
        const target = id(i % 300);
        ops.push({ updateOne: { filter: { _id: target }, update: { $inc: { n: 1 } } } });
        expected.get(target)!.n += 1;
      } else if (k === 4) {
        const target = id(2000 + i);
        ops.push({
          updateOne: {
            filter: { _id: target },
            update: { $setOnInsert: { kind: 'upserted', tags: [] }, $set: { n: i } },
            upsert: true,
          },
        });
        expected.set(target, { _id: target, kind: 'upserted', n: i, tags: [] });
      } else {
        // deletes of seed documents 300..399, which no update touches (some twice: the second deletes nothing)
        const target = id(300 + (Math.floor(i / 6) % 100));
        ops.push({ deleteOne: { filter: { _id: target } } });
      }
    }
    // the model assumes deletes and updates never meet
    const deleted = new Set(
      ops.flatMap((op) => ('deleteOne' in op ? [(op.deleteOne.filter as { _id: string })._id] : [])),
    );
    const touched = new Set(
      ops.flatMap((op) => ('updateOne' in op ? [(op.updateOne.filter as { _id: string })._id] : [])),
    );
    expect([...deleted].filter((d) => touched.has(d))).toEqual([]);
    for (const d of deleted) expected.delete(d);

    const res = await col.bulkWrite(ops, { ordered: false });
    expect(res.insertedCount).toBe(167);
    expect(res.upsertedCount).toBe(166);
    expect(res.matchedCount).toBe(167 + 167 + 167);
    expect(res.deletedCount).toBe(deleted.size);

    const stored = await col.find({}).sort({ _id: 1 }).toArray();
    const want = [...expected.values()].sort((a, b) => (a._id < b._id ? -1 : 1));
    expect(stored).toHaveLength(want.length);
    expect(stored).toEqual(want);
  });

  it('records a first send with one insert, a redelivered copy and later outcomes as upserts, within the project', async () => {
    const projectId = newProjectId();
    const event = eventDoc(projectId, { status: 'Processing', delivery_count: 1 });
    const delivery = deliveryDoc(projectId, { event_id: event._id, endpoint_id: newId() });
    await db.store.events.insertManyIfAbsent([event]);
    const outcome = (over: Partial<DeliveryOutcome>): DeliveryOutcome => ({
      delivery,
      status: 'Retry',
      reason: 'HTTP 500',
      nextAttemptAt: new Date(Date.now() + 60_000),
      attempt: attempt('a1'),
      retrySpent: true,
      firstRecord: true,
      ...over,
    });
    // no document yet: the event is still Processing
    expect((await db.store.events.findById(projectId, event._id))?.status).toBe('Processing');
    await db.store.deliveries.recordOutcomes([outcome({})]);
    expect(await db.store.deliveries.findById(projectId, delivery._id)).toMatchObject({
      status: 'Retry',
      attempts_made: 1,
      retries_used: 1,
      attempts: [expect.objectContaining({ uid: 'a1' })],
    });
    expect((await db.store.events.findById(projectId, event._id))?.status).toBe('Retry');
    // the same first send again (a redelivered message): the insert is refused, the upsert appends
    await db.store.deliveries.recordOutcomes([
      outcome({
        status: 'Success',
        reason: null,
        nextAttemptAt: null,
        attempt: attempt('a2'),
        retrySpent: false,
      }),
    ]);
    expect(await db.store.deliveries.findById(projectId, delivery._id)).toMatchObject({
      status: 'Success',
      attempts_made: 2,
      retries_used: 1,
      attempts: [expect.objectContaining({ uid: 'a1' }), expect.objectContaining({ uid: 'a2' })],
    });
    expect((await db.store.events.findById(projectId, event._id))?.status).toBe('Success');
    // an outcome naming another project changes nothing of this one
    const intruder = newProjectId();
    await db.store.deliveries
      .recordOutcomes([
        outcome({ delivery: { ...delivery, project_id: intruder }, status: 'Failure', firstRecord: false }),
      ])
      .catch(() => undefined);
    expect(await db.store.deliveries.findById(projectId, delivery._id)).toMatchObject({
      status: 'Success',
      attempts_made: 2,
    });
  });

  it('marks deliveries for resend only within the given project (markForResend)', async () => {
    const projectId = newProjectId();
    const failed = Array.from({ length: 3 }, () =>
      deliveryDoc(projectId, {
        event_id: newId(),
        endpoint_id: newId(),
        status: 'Failure',
        attempts: [attempt('x')],
        attempts_made: 1,
      }),
    );
    await db.store.deliveries.insertManyIfAbsent(failed);
    await db.store.deliveries.markForResend(newProjectId(), [failed[0]._id], 'manual resend');
    expect((await db.store.deliveries.findById(projectId, failed[0]._id))?.status).toBe('Failure');
    await db.store.deliveries.markForResend(
      projectId,
      failed.slice(0, 2).map((d) => d._id),
      'manual resend',
    );
    const after = await db.store.deliveries.findByIds(
      projectId,
      failed.map((d) => d._id),
    );
    const byId = new Map(after.map((d) => [d._id, d]));
    for (const d of failed.slice(0, 2))
      expect(byId.get(d._id)).toMatchObject({
        status: 'Scheduled',
        status_reason: 'manual resend',
        next_attempt_at: null,
        attempts_made: 1,
        attempts: [expect.objectContaining({ uid: 'x' })],
      });
    expect(byId.get(failed[2]._id)?.status).toBe('Failure');
  });
});
