import { newId, newProjectId } from '@hookrail/domain';
import { DuplicateKeyError, isDuplicateKey } from '../errors';
import { eventDoc, sourceDoc } from '@hookrail/testkit';
import { openContractDb, scratch, type ContractDb } from './contract-db';

describe('store contract: unique indexes surface as DuplicateKeyError', () => {
  let db: ContractDb;
  beforeAll(async () => {
    db = await openContractDb('contract-duplicates');
  });
  afterAll(async () => {
    await db?.close();
  });

  it('rejects a second source with the same mask id with a DuplicateKeyError naming the index', async () => {
    const projectId = newProjectId();
    const first = sourceDoc(projectId);
    await db.store.sources.insert(projectId, first);
    const err = await db.store.sources
      .insert(projectId, sourceDoc(projectId, { mask_id: first.mask_id }))
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(DuplicateKeyError);
    expect((err as DuplicateKeyError).code).toBe('conflict');
    expect((err as DuplicateKeyError).retriable).toBe(false);
    expect((err as DuplicateKeyError).index).toBe('mask_id_1');
    expect(await db.store.sources.findByMaskId(first.mask_id)).toMatchObject({ _id: first._id });
  });

  it('returns the stored document unchanged when the same id is inserted again in its project', async () => {
    const projectId = newProjectId();
    const doc = sourceDoc(projectId, { name: 'first' });
    const stored = await db.store.sources.insert(projectId, doc);
    const again = await db.store.sources.insert(projectId, { ...doc, name: 'second' });
    expect(again).toEqual(stored);
    expect(again.name).toBe('first');
  });

  it('refuses an id another project holds with a DuplicateKeyError and leaves that document alone', async () => {
    const owner = newProjectId();
    const doc = sourceDoc(owner);
    await db.store.sources.insert(owner, doc);
    const other = newProjectId();
    await expect(db.store.sources.insert(other, { ...doc, mask_id: newId() })).rejects.toBeInstanceOf(
      DuplicateKeyError,
    );
    expect(await db.store.sources.findById(other, doc._id)).toBeNull();
    expect(await db.store.sources.findById(owner, doc._id)).toMatchObject({ mask_id: doc.mask_id });
  });

  it('inserts the new documents of an unordered batch and skips the ids that exist (insertManyIfAbsent)', async () => {
    const projectId = newProjectId();
    const existing = Array.from({ length: 5 }, () => eventDoc(projectId, { event_type: 'old' }));
    await db.store.events.insertManyIfAbsent(existing);
    const fresh = Array.from({ length: 20 }, () => eventDoc(projectId, { event_type: 'new' }));
    const batch = [
      ...fresh.slice(0, 10),
      ...existing.map((e) => ({ ...e, event_type: 'changed' })),
      ...fresh.slice(10),
    ];
    await db.store.events.insertManyIfAbsent(batch);
    expect(await db.store.events.count(projectId)).toBe(25);
    const stored = await db.store.events.findByIds(
      projectId,
      existing.map((e) => e._id),
    );
    expect(stored.map((e) => e.event_type)).toEqual(['old', 'old', 'old', 'old', 'old']);
  });

  it('reports every duplicate of an unordered bulk insert with code 11000 (isDuplicateKey)', async () => {
    const col = scratch(db.conn, 'dups');
    await col.insertMany([{ _id: 'a' }, { _id: 'b' }]);
    const err = await col.insertMany([{ _id: 'a' }, { _id: 'c' }, { _id: 'b' }], { ordered: false }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isDuplicateKey(err)).toBe(true);
    expect(await col.countDocuments()).toBe(3);
    // a failure that is not a duplicate is not mistaken for one
    const other = await col.updateOne({ _id: 'a' }, { $inc: { n: 'not a number' } } as never).then(
      () => null,
      (e: unknown) => e,
    );
    expect(other).not.toBeNull();
    expect(isDuplicateKey(other)).toBe(false);
  });

  it('gives an idempotency key to exactly one of 20 concurrent claimers, and all learn the same owner', async () => {
    const projectId = newProjectId();
    const claimers = Array.from({ length: 20 }, () => newId());
    // each claimer in a batch of its own, all at once (several dispatchers), and one batch
    // claiming the key twice (two events of one Kafka batch)
    const owners = await Promise.all(
      claimers.map((eventId) =>
        db.store.events.claimIdempotencyKeys([{ projectId, key: 'order-42', eventId }]).then((o) => o[0]),
      ),
    );
    expect(new Set(owners).size).toBe(1);
    expect(claimers).toContain(owners[0]);
    const [a, b] = [newId(), newId()];
    const sameBatch = await db.store.events.claimIdempotencyKeys([
      { projectId, key: 'order-43', eventId: a },
      { projectId, key: 'order-43', eventId: b },
    ]);
    expect(sameBatch).toEqual([a, a]);
    // the same key in another project is another claim
    const elsewhere = newId();
    expect(
      await db.store.events.claimIdempotencyKeys([
        { projectId: newProjectId(), key: 'order-42', eventId: elsewhere },
      ]),
    ).toEqual([elsewhere]);
  });
});
