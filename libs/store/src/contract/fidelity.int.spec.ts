import { newProjectId } from '@hookrail/domain';
import { deliveryDoc, endpointDoc, eventDoc } from '@hookrail/testkit';
import { openContractDb, scratch, type ContractDb } from './contract-db';

describe('store contract: values read back as written', () => {
  let db: ContractDb;
  beforeAll(async () => {
    db = await openContractDb('contract-fidelity');
  });
  afterAll(async () => {
    await db?.close();
  });

  it('keeps false as false, 0 as 0 and true as true (inserted and $set)', async () => {
    const col = scratch(db.conn, 'bools');
    await col.insertOne({ _id: 'a', f: false, t: true, z: 0 });
    await col.insertOne({ _id: 'b', f: true });
    await col.updateOne({ _id: 'b' }, { $set: { f: false } });
    expect(await col.findOne({ _id: 'a' })).toEqual({ _id: 'a', f: false, t: true, z: 0 });
    expect((await col.findOne({ _id: 'b' }))?.f).toBe(false);
    // and queries tell them apart
    expect(await col.countDocuments({ f: false })).toBe(2);
    expect(await col.countDocuments({ z: false })).toBe(0);
  });

  it('matches a stored null and a missing field with {f: null}, and neither with {f: {$ne: null}}', async () => {
    const col = scratch(db.conn, 'nulls');
    await col.insertMany([{ _id: 'null', f: null }, { _id: 'missing' }, { _id: 'set', f: 'x' }]);
    const ids = async (filter: object) =>
      (await col.find(filter).sort({ _id: 1 }).toArray()).map((d) => d._id);
    expect(await ids({ f: null })).toEqual(['missing', 'null']);
    expect(await ids({ f: { $ne: null } })).toEqual(['set']);
    expect(await ids({ f: { $exists: false } })).toEqual(['missing']);
    expect((await col.findOne({ _id: 'null' }))?.f).toBeNull();
    expect(await col.findOne({ _id: 'missing' })).toEqual({ _id: 'missing' });
  });

  it('keeps Dates to the millisecond, and range queries on them are exact', async () => {
    const col = scratch(db.conn, 'dates');
    const at = new Date('2026-03-01T12:34:56.789Z');
    await col.insertMany([
      { _id: 'at', d: at },
      { _id: 'after', d: new Date(at.getTime() + 1) },
      { _id: 'epoch', d: new Date(0) },
    ]);
    const read = await col.findOne({ _id: 'at' });
    expect(read?.d).toBeInstanceOf(Date);
    expect((read?.d as Date).toISOString()).toBe('2026-03-01T12:34:56.789Z');
    expect((await col.find({ d: { $lte: at } }).toArray()).map((d) => d._id).sort()).toEqual(['at', 'epoch']);
  });

  it('keeps empty arrays, empty objects, nested objects and arrays of objects as they were', async () => {
    const col = scratch(db.conn, 'shapes');
    const doc = {
      _id: 'x',
      empty: [],
      emptyObject: {},
      nested: { a: { b: { c: [1, 'two', { three: 3 }], d: null } }, z: 'last', y: 'after z' },
      list: [{ k: 1 }, { k: 2, extra: [] }],
    };
    await col.insertOne(doc);
    const read = await col.findOne({ _id: 'x' });
    expect(read).toEqual(doc);
    expect(Object.keys(read?.nested as object)).toEqual(['a', 'z', 'y']);
    // an empty array is not a missing field
    expect(await col.countDocuments({ empty: { $exists: true } })).toBe(1);
    await col.updateOne({ _id: 'x' }, { $push: { empty: 'first' } as never });
    expect((await col.findOne({ _id: 'x' }))?.empty).toEqual(['first']);
  });

  it('keeps long strings byte for byte (a 4 MiB payload with multi-byte characters)', async () => {
    const col = scratch(db.conn, 'strings');
    const unit = 'héllo wörld — 事件 🚀 "quoted" \\ \n';
    const long = unit.repeat(Math.ceil((4 * 1024 * 1024) / Buffer.byteLength(unit)));
    await col.insertOne({ _id: 'long', s: long });
    const read = await col.findOne({ _id: 'long' });
    expect(read?.s).toHaveLength(long.length);
    expect(read?.s === long).toBe(true);
  });

  it('keeps integers beyond 32 bits, negatives and fractions', async () => {
    const col = scratch(db.conn, 'numbers');
    const doc = { _id: 'n', big: 2 ** 40 + 1, neg: -7, frac: 0.1 + 0.2, max: Number.MAX_SAFE_INTEGER };
    await col.insertOne(doc);
    expect(await col.findOne({ _id: 'n' })).toEqual(doc);
  });

  it('stores nulls, false and empty arrays written through insert ($setOnInsert upsert) and insertManyIfAbsent', async () => {
    const projectId = newProjectId();
    const endpoint = endpointDoc(projectId, { owner_id: null, advanced_signatures: false, secrets: [] });
    const stored = await db.store.endpoints.insert(projectId, endpoint);
    expect(stored).toEqual(endpoint);
    expect(await db.store.endpoints.findById(projectId, endpoint._id)).toEqual(endpoint);

    const event = eventDoc(projectId, { source_id: null, endpoints: [], is_duplicate_event: false });
    const delivery = deliveryDoc(projectId, {
      event_id: event._id,
      endpoint_id: endpoint._id,
      next_attempt_at: null,
      attempts: [],
      metadata: {},
    });
    await db.store.events.insertManyIfAbsent([event]);
    await db.store.deliveries.insertManyIfAbsent([delivery]);
    expect(await db.store.events.findById(projectId, event._id)).toEqual(event);
    expect(await db.store.deliveries.findById(projectId, delivery._id)).toEqual(delivery);
  });
});
