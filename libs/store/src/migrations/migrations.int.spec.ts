import { setTimeout as sleep } from 'node:timers/promises';
import type { Connection, mongo } from 'mongoose';
import { connectMongo } from '../connection';
import { Store } from '../store';
import { BASELINE_INDEXES } from './0001-baseline-indexes';
import type { Migration } from './migration';
import { MIGRATIONS } from './catalog';
import { formatMigrationStatus, migrationKey } from './plan';
import { MigrationRunner } from './runner';

/** The collections migration 3 gave list keys, and its index as `indexesOf` shows it. */
const LIST_KEYED = ['events', 'event_deliveries'];
const KEYS_INDEX_ROW = 'project_id_1_keys_1__id_-1 {"project_id":1,"keys":1,"_id":-1}';

/** Every migration of the catalog: a fresh or pre-migration database gets them all. */
const ALL_KEYS = MIGRATIONS.map(migrationKey);

// Each test gets databases of its own, named after this file's test database so that the run's
// teardown drops them too.
const opened: Connection[] = [];
let counter = 0;
function freshUrl(): string {
  const base = process.env.HOOKRAIL_TEST_MONGODB_URL;
  if (!base) throw new Error('HOOKRAIL_TEST_MONGODB_URL is not set (jest.integration-setup.js sets it)');
  const url = new URL(base);
  url.pathname = `${url.pathname}-m${++counter}`;
  return url.toString();
}
async function open(url: string): Promise<mongo.Db> {
  const conn = await connectMongo(url, { appName: 'migrations-test' });
  opened.push(conn);
  if (!conn.db) throw new Error('not connected');
  return conn.db;
}
afterAll(async () => {
  for (const conn of opened) await conn.dropDatabase().catch(() => undefined);
  for (const conn of opened) await conn.close();
});

/** Every index of every collection: name, key and uniqueness, sorted. */
async function indexesOf(db: mongo.Db): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const { name } of await db.listCollections({}, { nameOnly: true }).toArray()) {
    if (name === 'migrations' || name === 'migration_lock') continue;
    const indexes = await db.collection(name).listIndexes().toArray();
    out[name] = indexes
      .map((ix) => `${ix.name} ${JSON.stringify(ix.key)}${ix.unique ? ' unique' : ''}`)
      .sort();
  }
  return out;
}

/** A migration that counts its runs in `runs` and takes `ms` doing it. */
function counting(id: number, ms = 0, fail?: () => boolean): Migration {
  return {
    id,
    name: `step-${id}`,
    description: `step ${id}`,
    async up(db) {
      await db
        .collection<{ _id: number; n: number }>('runs')
        .updateOne({ _id: id }, { $inc: { n: 1 } }, { upsert: true });
      await db.collection(`step_${id}`).createIndex({ a: 1 });
      await sleep(ms);
      if (fail?.()) throw new Error(`step ${id} failed after its index`);
    },
  };
}
async function runsOf(db: mongo.Db): Promise<Record<number, number>> {
  const docs = await db.collection<{ _id: number; n: number }>('runs').find().toArray();
  return Object.fromEntries(docs.map((d) => [d._id, d.n]));
}

describe('versioned migrations', () => {
  it('gives a fresh database every index of the schemas and records the baseline', async () => {
    const url = freshUrl();
    const store = await Store.connect(url, 'migrations-test');
    const { applied, status } = await store
      .migrations()
      .up()
      .finally(() => store.close());
    expect(applied.map((a) => a.key)).toEqual(ALL_KEYS);
    expect(status).toEqual(ALL_KEYS.map((key) => expect.objectContaining({ key, state: 'applied' })));
    const db = await open(url);
    const indexes = await indexesOf(db);
    for (const [name, specs] of Object.entries(BASELINE_INDEXES))
      if (!LIST_KEYED.includes(name)) expect(indexes[name]).toHaveLength(specs.length + 1);
    // Migration 3 replaced the events' and deliveries' list indexes with one of list keys each.
    for (const name of LIST_KEYED) expect(indexes[name]).toEqual(['_id_ {"_id":1}', KEYS_INDEX_ROW]);
    expect(await db.collection('migrations').find().toArray()).toEqual(
      MIGRATIONS.map((m) =>
        expect.objectContaining({ _id: migrationKey(m), id: m.id, applied_at: expect.any(Date) }),
      ),
    );

    // The schemas declare the same indexes: an index added to a schema without its migration
    // fails here.
    const schemasUrl = freshUrl();
    const schemas = await Store.connect(schemasUrl, 'migrations-test');
    await schemas.ensureIndexes().finally(() => schemas.close());
    expect(indexes).toEqual(await indexesOf(await open(schemasUrl)));
  });

  it('applies nothing when run again', async () => {
    const url = freshUrl();
    const store = await Store.connect(url, 'migrations-test');
    try {
      const first = await store.migrations().up();
      const again = await store.migrations().up();
      expect(again.applied).toEqual([]);
      expect(again.status).toEqual(first.status);
    } finally {
      await store.close();
    }
  });

  it('leaves a migration that failed half-way pending, and the next run completes it', async () => {
    const db = await open(freshUrl());
    let crash = true;
    const migrations = [counting(1), counting(2, 0, () => crash), counting(3)];
    await expect(new MigrationRunner(db, { migrations }).up()).rejects.toThrow(
      /step-2.*step 2 failed after its index/s,
    );
    const afterCrash = await new MigrationRunner(db, { migrations }).status();
    expect(afterCrash.map((r) => `${r.key} ${r.state}`)).toEqual([
      '0001-step-1 applied',
      '0002-step-2 pending',
      '0003-step-3 pending',
    ]);

    crash = false;
    const { applied } = await new MigrationRunner(db, { migrations }).up();
    expect(applied.map((a) => a.key)).toEqual(['0002-step-2', '0003-step-3']);
    // Step 2 ran twice (its index creation is idempotent), step 1 once.
    expect(await runsOf(db)).toEqual({ 1: 1, 2: 2, 3: 1 });
  });

  it('applies each migration exactly once when two runners start together', async () => {
    const url = freshUrl();
    const [a, b] = [await open(url), await open(url)];
    const migrations = [counting(1, 300), counting(2, 300), counting(3, 300)];
    const waited: string[] = [];
    const runner = (db: mongo.Db, who: string) =>
      new MigrationRunner(db, { migrations, lock: { pollMs: 100 }, onWait: () => waited.push(who) }).up();
    const [ra, rb] = await Promise.all([runner(a, 'a'), runner(b, 'b')]);

    expect(await runsOf(a)).toEqual({ 1: 1, 2: 1, 3: 1 });
    expect([...ra.applied, ...rb.applied].map((x) => x.key).sort()).toEqual([
      '0001-step-1',
      '0002-step-2',
      '0003-step-3',
    ]);
    expect(waited).toHaveLength(1);
    expect(await a.collection('migration_lock').countDocuments()).toBe(0);
  });

  it('takes over a lock whose holder died, and gives up on a live one naming its holder', async () => {
    const db = await open(freshUrl());
    const locks = db.collection<{ _id: string; owner: string; expires_at: Date }>('migration_lock');
    await locks.insertOne({ _id: 'migrations', owner: 'dead-job', expires_at: new Date(Date.now() - 1000) });
    const migrations = [counting(1)];
    expect((await new MigrationRunner(db, { migrations }).up()).applied).toHaveLength(1);

    await locks.insertOne({
      _id: 'migrations',
      owner: 'live-job',
      expires_at: new Date(Date.now() + 60_000),
    });
    const blocked = new MigrationRunner(db, {
      migrations: [counting(1), counting(2)],
      lock: { waitMs: 300, pollMs: 100 },
    });
    await expect(blocked.up()).rejects.toThrow(/locked by live-job until .*gave up after 300 ms/);
    expect(await runsOf(db)).toEqual({ 1: 1 });
  });

  it('upgrades a database written by the services before migrations to the baseline, losing nothing', async () => {
    const url = freshUrl();
    const db = await open(url);
    // What the services of the release before migrations left: the baseline's indexes, which they
    // created at start-up, and documents.
    for (const [name, specs] of Object.entries(BASELINE_INDEXES))
      for (const [key, options] of specs) await db.collection(name).createIndex(key, options ?? {});
    const projectId = 'prj_01J0MIGRATIONTEST000000000';
    await db.collection('projects').insertOne({ _id: projectId as never, name: 'p', deleted_at: null });
    await db.collection('events').insertMany(
      Array.from({ length: 50 }, (_, i) => ({
        _id: `evt_${i}` as never,
        project_id: projectId,
        event_type: 'x',
      })),
    );
    const indexesBefore = await indexesOf(db);

    const store = await Store.connect(url, 'migrations-test');
    try {
      expect((await store.migrations().status()).map((r) => r.state)).toEqual(ALL_KEYS.map(() => 'pending'));
      const { applied, status } = await store.migrations().up();
      expect(applied.map((a) => a.key)).toEqual(ALL_KEYS);
      expect(formatMigrationStatus(status)).toMatch(
        /^0001-baseline-indexes +applied +\d{4}-\d\d-\d\dT[\d:.]+Z +every collection/m,
      );
    } finally {
      await store.close();
    }
    const schemasUrl = freshUrl();
    const schemas = await Store.connect(schemasUrl, 'migrations-test');
    await schemas.ensureIndexes().finally(() => schemas.close());
    const after = await indexesOf(db);
    expect(after).toEqual(await indexesOf(await open(schemasUrl)));
    for (const name of Object.keys(indexesBefore).filter((n) => !LIST_KEYED.includes(n)))
      expect(after[name]).toEqual(indexesBefore[name]);
    expect(await db.collection('events').countDocuments({ project_id: projectId })).toBe(50);
    expect(await db.collection('projects').countDocuments()).toBe(1);
  });
});
