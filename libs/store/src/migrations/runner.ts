import { performance } from 'node:perf_hooks';
import type { mongo } from 'mongoose';
import type * as UmzugModule from 'umzug';
import type { UmzugStorage } from 'umzug';
import { MIGRATIONS } from './catalog';
import { MigrationLock, type LockTimings } from './lock';
import type { Migration, MigrationRecord, MigrationStatusRow } from './migration';
import { checkMigrationOrder, migrationKey, migrationStatus } from './plan';

const DEFAULT_LOCK: LockTimings = { ttlMs: 60_000, waitMs: 10 * 60_000, pollMs: 1_000 };

export interface AppliedMigration {
  key: string;
  description: string;
  durationMs: number;
}

export interface MigrationRunOptions {
  /** The catalog by default; tests pass their own. */
  migrations?: readonly Migration[];
  lock?: Partial<LockTimings>;
  /** Each migration once it is recorded. */
  onApplied?: (applied: AppliedMigration) => void;
  /** Once, when another runner holds the lock and this one waits for it. */
  onWait?: (holder: { owner: string; expires_at: Date }) => void;
}

/**
 * Loaded when migrations run, not with the store: umzug brings its command line along (700 KB
 * bundled), which only the set-up needs, so a service's start-up never loads it. In dist/ its
 * CommonJS exports arrive as the default export of its chunk; from the sources, by name.
 */
async function loadUmzug(): Promise<typeof UmzugModule.Umzug> {
  const mod: Partial<typeof UmzugModule> & { default?: typeof UmzugModule } = await import('umzug');
  const Umzug = mod.Umzug ?? mod.default?.Umzug;
  if (!Umzug) throw new Error('umzug did not load');
  return Umzug;
}

/**
 * Applies the pending migrations of one database in order, each recorded in `migrations` once it
 * succeeded, under the lock of `migration_lock` so that two set-up Jobs or replicas never run one
 * twice. Sequencing and pending computation are umzug's; the records and the lock are ours.
 */
export class MigrationRunner {
  private readonly migrations: readonly Migration[];
  private readonly records: mongo.Collection<MigrationRecord>;
  private readonly timings: LockTimings;

  constructor(
    private readonly db: mongo.Db,
    private readonly options: MigrationRunOptions = {},
  ) {
    this.migrations = options.migrations ?? MIGRATIONS;
    checkMigrationOrder(this.migrations);
    this.records = db.collection<MigrationRecord>('migrations');
    this.timings = { ...DEFAULT_LOCK, ...options.lock };
  }

  async status(): Promise<MigrationStatusRow[]> {
    return migrationStatus(this.migrations, await this.records.find().toArray());
  }

  /** Applies what is pending; throws on the first migration that fails, leaving it pending. */
  async up(): Promise<{ applied: AppliedMigration[]; status: MigrationStatusRow[] }> {
    const lock = new MigrationLock(this.db, this.timings);
    await lock.acquire(this.options.onWait);
    // A long migration (an index on a big collection) outlives the lock's expiry without this.
    const heartbeat = setInterval(() => void lock.renew().catch(() => undefined), this.timings.ttlMs / 3);
    heartbeat.unref();
    const applied: AppliedMigration[] = [];
    try {
      const Umzug = await loadUmzug();
      const durations = new Map<string, number>();
      const umzug = new Umzug({
        migrations: this.migrations.map((m) => ({
          name: migrationKey(m),
          up: () => this.apply(m, lock, durations),
        })),
        storage: this.storage(lock.owner, durations, applied),
        logger: undefined,
      });
      await umzug.up();
    } finally {
      clearInterval(heartbeat);
      await lock.release();
    }
    return { applied, status: await this.status() };
  }

  /**
   * Runs `afterRollout` of each applied migration that has one and has not run it yet, under the
   * lock, recording when; returns their keys (docs/database.md, "Migrations").
   */
  async afterRollout(): Promise<string[]> {
    const records = new Map((await this.records.find().toArray()).map((r) => [r._id, r]));
    const due = this.migrations.filter((m) => {
      const record = records.get(migrationKey(m));
      return m.afterRollout && record && !record.after_rollout_at;
    });
    if (due.length === 0) return [];
    const lock = new MigrationLock(this.db, this.timings);
    await lock.acquire(this.options.onWait);
    try {
      for (const m of due) {
        await lock.renew();
        await m.afterRollout!(this.db);
        await this.records.updateOne({ _id: migrationKey(m) }, { $set: { after_rollout_at: new Date() } });
      }
    } finally {
      await lock.release();
    }
    return due.map(migrationKey);
  }

  /** How many known migrations are not applied yet (one read; no lock). */
  async pendingCount(): Promise<number> {
    return (await this.status()).filter((r) => r.state === 'pending').length;
  }

  private async apply(m: Migration, lock: MigrationLock, durations: Map<string, number>): Promise<void> {
    // Refuses to start a migration once the lock has been lost (expired and taken by another runner).
    await lock.renew();
    const started = performance.now();
    await m.up(this.db);
    durations.set(migrationKey(m), Math.round(performance.now() - started));
  }

  /** umzug's record keeping: written after the migration succeeded, so a crash leaves it pending. */
  private storage(owner: string, durations: Map<string, number>, applied: AppliedMigration[]): UmzugStorage {
    const byKey = new Map(this.migrations.map((m) => [migrationKey(m), m]));
    return {
      executed: async () =>
        (await this.records.find({}, { projection: { _id: 1 } }).toArray()).map((r) => r._id),
      logMigration: async ({ name }) => {
        const m = byKey.get(name);
        if (!m) throw new Error(`no migration ${name}`);
        const record = {
          id: m.id,
          description: m.description,
          applied_at: new Date(),
          duration_ms: durations.get(name) ?? 0,
          applied_by: owner,
        };
        await this.records.updateOne({ _id: name }, { $setOnInsert: record }, { upsert: true });
        applied.push({ key: name, description: m.description, durationMs: record.duration_ms });
        this.options.onApplied?.(applied[applied.length - 1]);
      },
      unlogMigration: () => Promise.reject(new Error('migrations only go forward')),
    };
  }
}
