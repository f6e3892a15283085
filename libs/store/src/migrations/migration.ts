import type { mongo } from 'mongoose';

/**
 * One step of the database schema: applied once per database, in `id` order, and recorded in the
 * `migrations` collection after it succeeded. `up` must be idempotent: a run that crashed in the
 * middle of it left it unrecorded, and the next run does it again from the start.
 */
export interface Migration {
  /** 1, 2, 3, …: the order, without gaps. */
  readonly id: number;
  /** Lower-case words joined by `-`; with the id it is the record's key (`0001-baseline-indexes`). */
  readonly name: string;
  /** One line, shown by `migrate status`. */
  readonly description: string;
  up(db: mongo.Db): Promise<void>;
  /**
   * Work to do once more after the upgrade that applied `up` has replaced every pod of the previous
   * release (the chart's post-upgrade set-up, `migrate after-rollout`), for what those pods wrote
   * meanwhile. Run once per database, recorded as `after_rollout_at`; idempotent like `up`.
   */
  afterRollout?(db: mongo.Db): Promise<void>;
}

/** What the `migrations` collection keeps of an applied migration. */
export interface MigrationRecord {
  _id: string;
  id: number;
  description: string;
  applied_at: Date;
  duration_ms: number;
  applied_by: string;
  /** When its `afterRollout` ran (migrations that have one). */
  after_rollout_at?: Date;
}

/**
 * A migration as `migrate status` reports it. `unknown`: recorded in the database but not known to
 * this version (applied by a newer release).
 */
export interface MigrationStatusRow {
  key: string;
  id: number;
  description: string;
  state: 'applied' | 'pending' | 'unknown';
  appliedAt: Date | null;
}
