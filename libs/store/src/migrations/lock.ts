import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { mongo } from 'mongoose';
import { isDuplicateKey } from '../errors';

const LOCK_ID = 'migrations';

interface LockDoc {
  _id: string;
  owner: string;
  taken_at: Date;
  expires_at: Date;
}

export interface LockTimings {
  /** How long the lock holds without a renewal: a runner that died frees it after this. */
  ttlMs: number;
  /** How long a runner waits for another one's lock before it gives up. */
  waitMs: number;
  /** How often a waiting runner tries again. */
  pollMs: number;
}

/**
 * One document in `migration_lock`, taken with an atomic upsert: the filter matches it only when
 * it has expired, so while another runner holds it the upsert inserts a second `_id: 'migrations'`
 * and fails on the primary key. The expiry is in the filter, not a TTL index, so a crashed
 * runner's lock is free as soon as it expires, whenever the server would have removed it.
 */
export class MigrationLock {
  readonly owner = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  private readonly locks: mongo.Collection<LockDoc>;

  constructor(
    db: mongo.Db,
    private readonly timings: LockTimings,
  ) {
    this.locks = db.collection<LockDoc>('migration_lock');
  }

  /** Takes the lock, waiting for another holder up to `waitMs`; `onWait` hears who holds it. */
  async acquire(onWait?: (holder: LockDoc) => void): Promise<void> {
    const deadline = Date.now() + this.timings.waitMs;
    let told = false;
    while (!(await this.tryAcquire())) {
      const holder = await this.locks.findOne({ _id: LOCK_ID });
      if (holder && !told) onWait?.(holder);
      told ||= Boolean(holder);
      if (Date.now() >= deadline) {
        const by = holder ? `${holder.owner} until ${holder.expires_at.toISOString()}` : 'another runner';
        throw new Error(`migrations are locked by ${by}; gave up after ${this.timings.waitMs} ms`);
      }
      await sleep(this.timings.pollMs);
    }
  }

  /** Pushes the expiry out; throws when the lock is no longer this runner's (it expired and was taken). */
  async renew(): Promise<void> {
    const res = await this.locks.updateOne(
      { _id: LOCK_ID, owner: this.owner },
      { $set: { expires_at: new Date(Date.now() + this.timings.ttlMs) } },
    );
    if (res.matchedCount !== 1) throw new Error(`the migration lock was lost by ${this.owner}`);
  }

  async release(): Promise<void> {
    await this.locks.deleteOne({ _id: LOCK_ID, owner: this.owner });
  }

  private async tryAcquire(): Promise<boolean> {
    const now = new Date();
    try {
      await this.locks.findOneAndUpdate(
        { _id: LOCK_ID, expires_at: { $lte: now } },
        {
          $set: {
            owner: this.owner,
            taken_at: now,
            expires_at: new Date(now.getTime() + this.timings.ttlMs),
          },
        },
        { upsert: true },
      );
      return true;
    } catch (err) {
      if (isDuplicateKey(err)) return false;
      throw err;
    }
  }
}
