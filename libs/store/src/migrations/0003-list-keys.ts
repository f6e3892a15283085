import type { mongo } from 'mongoose';
import type { DeliveryDoc } from '../deliveries/delivery.schema';
import type { EventDoc } from '../events/event.schema';
import { KEYS_INDEX, deliveryKeys, eventKeys } from '../list-keys/list-keys';
import type { Migration } from './migration';

/** The two collections read through list keys, and each document's keys. */
const KEYED: Readonly<Record<string, (doc: mongo.Document) => string[]>> = {
  events: (d) => eventKeys(d as EventDoc),
  event_deliveries: (d) => deliveryKeys(d as DeliveryDoc, (d as DeliveryDoc).status),
};

const BATCH = 1_000;

function sameKeys(stored: unknown, keys: readonly string[]): boolean {
  return Array.isArray(stored) && stored.length === keys.length && stored.every((k, i) => k === keys[i]);
}

/**
 * Writes the keys of every document of `name` whose stored keys are missing or out of date (a
 * status changed by a writer that did not know them), in one pass over the collection.
 */
async function rekey(db: mongo.Db, name: string): Promise<number> {
  const collection = db.collection(name);
  const keysOf = KEYED[name];
  const cursor = collection.find({}).batchSize(BATCH);
  let rewritten = 0;
  let batch: mongo.AnyBulkWriteOperation[] = [];
  const flush = async () => {
    if (batch.length) await collection.bulkWrite(batch, { ordered: false });
    rewritten += batch.length;
    batch = [];
  };
  for await (const doc of cursor) {
    const keys = keysOf(doc);
    if (sameKeys(doc.keys, keys)) continue;
    batch.push({ updateOne: { filter: { _id: doc._id }, update: { $set: { keys } } } });
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  return rewritten;
}

/** Drops every index of the collection but `_id` and the list keys' (the nine it replaces). */
async function dropListIndexes(db: mongo.Db, name: string): Promise<void> {
  const keep = JSON.stringify(KEYS_INDEX);
  for (const ix of await db.collection(name).listIndexes().toArray()) {
    if (ix.name === '_id_' || JSON.stringify(ix.key) === keep) continue;
    await db.collection(name).dropIndex(ix.name as string);
  }
}

/**
 * Events and deliveries get their list keys, written into every stored document, and one index
 * each in place of their nine list indexes (docs/database.md, "Indexes"). Idempotent: documents
 * with the right keys are skipped, the index creation is a no-op when it exists, and only indexes
 * still there are dropped.
 */
export const listKeys: Migration = {
  id: 3,
  name: 'list-keys',
  description: "events' and deliveries' list keys, one index each in place of their nine list indexes",
  async up(db) {
    for (const name of Object.keys(KEYED)) {
      await rekey(db, name);
      await db.collection(name).createIndex(KEYS_INDEX);
      await dropListIndexes(db, name);
    }
  },
  // Pods of the previous release serve until the rollout replaces them: they write documents
  // without keys and statuses without their keys, and one that restarts creates its old indexes
  // again. The same work once more, after the rollout, tidies what they left.
  async afterRollout(db) {
    for (const name of Object.keys(KEYED)) {
      await rekey(db, name);
      await dropListIndexes(db, name);
    }
  },
};
