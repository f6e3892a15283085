import type { mongo } from 'mongoose';
import type { Migration } from './migration';

type IndexSpec = readonly [key: Record<string, 1 | -1>, options?: { unique: true }];

/**
 * Every collection and index of the schemas when migrations began, written out rather than read
 * from the schemas: this migration must create the same indexes in every later release, whatever
 * the schemas say by then. A later index change is a new migration (docs/database.md, "Migrations").
 */
export const BASELINE_INDEXES: Readonly<Record<string, readonly IndexSpec[]>> = {
  projects: [[{ deleted_at: 1, _id: 1 }]],
  api_keys: [[{ project_id: 1, deleted_at: 1, _id: 1 }]],
  sources: [
    [{ mask_id: 1 }, { unique: true }],
    [{ project_id: 1, name: 1, deleted_at: 1 }],
    [{ project_id: 1, deleted_at: 1, _id: -1 }],
    [{ type: 1, deleted_at: 1 }],
  ],
  endpoints: [
    [{ project_id: 1, deleted_at: 1, _id: -1 }],
    [{ project_id: 1, owner_id: 1, deleted_at: 1, _id: -1 }],
  ],
  subscriptions: [
    [{ project_id: 1, deleted_at: 1, _id: -1 }],
    [{ project_id: 1, source_id: 1, deleted_at: 1, _id: -1 }],
    [{ project_id: 1, endpoint_id: 1, deleted_at: 1, _id: -1 }],
  ],
  portal_links: [
    [{ token_hash: 1 }, { unique: true }],
    [{ auth_key_hash: 1 }],
    [{ project_id: 1, deleted_at: 1, _id: -1 }],
  ],
  events: [
    [{ project_id: 1, _id: -1 }],
    [{ project_id: 1, source_id: 1, _id: -1 }],
    [{ project_id: 1, endpoints: 1, _id: -1 }],
    [{ project_id: 1, idempotency_key: 1, _id: -1 }],
  ],
  idempotency_claims: [],
  event_deliveries: [
    [{ project_id: 1, _id: -1 }],
    [{ project_id: 1, event_id: 1, _id: -1 }],
    [{ project_id: 1, endpoint_id: 1, _id: -1 }],
    [{ project_id: 1, endpoint_id: 1, status: 1, _id: -1 }],
    [{ project_id: 1, status: 1, _id: -1 }],
  ],
  delivery_stats: [[{ project_id: 1, endpoint_id: 1, minute: 1 }], [{ project_id: 1, minute: 1 }]],
  event_types_seen: [[{ project_id: 1, endpoint_id: 1, event_type: 1 }]],
  event_catalog: [
    [{ project_id: 1, deleted_at: 1, name: 1 }, { unique: true }],
    [{ project_id: 1, deleted_at: 1, _id: -1 }],
  ],
  meta_events: [[{ project_id: 1, _id: -1 }]],
  schedules: [[{ shard: 1, created_at: 1, _id: 1 }]],
  source_health: [],
  dead_letters: [[{ failed_at: -1 }]],
  cli_listeners: [],
  ordering_keys: [[{ project_id: 1, endpoint_id: 1, _id: 1 }], [{ deployment: 1, updated_at: 1 }]],
  held_deliveries: [[{ project_id: 1, endpoint_id: 1, key: 1, seq: 1 }]],
};

async function createCollection(db: mongo.Db, name: string): Promise<void> {
  await db.createCollection(name).catch((err: { codeName?: string }) => {
    if (err.codeName !== 'NamespaceExists') throw err;
  });
}

/** Throws unless every index of `specs` is on the collection with its key order and uniqueness. */
async function verifyIndexes(db: mongo.Db, name: string, specs: readonly IndexSpec[]): Promise<void> {
  const present = await db.collection(name).listIndexes().toArray();
  const shape = (key: Record<string, unknown>, unique: unknown) =>
    JSON.stringify([Object.entries(key).map(([f, d]) => [f, Number(d)]), unique === true]);
  const shapes = new Set(present.map((ix) => shape(ix.key as Record<string, unknown>, ix.unique)));
  for (const [key, options] of specs) {
    if (!shapes.has(shape(key, options?.unique))) {
      throw new Error(`${name}: index ${JSON.stringify(key)} is missing after it was created`);
    }
  }
}

/**
 * Creates what is missing and leaves what is there: on a database whose indexes the services
 * created before migrations existed, every `createIndex` is a no-op, and the verification is what
 * makes recording the baseline safe.
 */
export const baselineIndexes: Migration = {
  id: 1,
  name: 'baseline-indexes',
  description: 'every collection and index of the schemas when migrations began',
  async up(db) {
    for (const [name, specs] of Object.entries(BASELINE_INDEXES)) {
      await createCollection(db, name);
      for (const [key, options] of specs) await db.collection(name).createIndex(key, options ?? {});
      await verifyIndexes(db, name, specs);
    }
  },
};
