import { parseDurationSeconds } from '@hookrail/domain';
import { boundedLru } from '@hookrail/toolbox';
import type { LRUCache } from 'lru-cache';
import { SlidingLog } from './sliding-log';

/** Subscription `alert_config`: `count` failures within `threshold` (a duration like "1h"). */
export interface AlertConfig {
  count: number;
  threshold: string;
}

/**
 * Counts failures per subscription and says when to alert. After an alert the
 * count starts again, so a failing endpoint alerts at most once per `count` failures.
 */
export class AlertThreshold {
  /** Bounded: a subscription whose failures stopped long ago loses a count it no longer needs. */
  private readonly logs: LRUCache<string, { log: SlidingLog; config: string }>;

  constructor(opts: { maxKeys?: number } = {}) {
    this.logs = boundedLru(opts.maxKeys ?? 100_000);
  }

  /** Keys currently tracked. */
  get size(): number {
    return this.logs.size;
  }

  /** Records a failure; true when this one crosses the threshold. */
  recordFailure(key: string, config: AlertConfig | null | undefined, nowMs: number): boolean {
    const windowSeconds = config ? parseDurationSeconds(config.threshold) : undefined;
    if (!config || !(config.count > 0) || !windowSeconds) return false;
    const signature = `${config.count}/${config.threshold}`;
    let entry = this.logs.get(key);
    if (!entry || entry.config !== signature) {
      entry = { log: new SlidingLog(config.count), config: signature };
      this.logs.set(key, entry);
    }
    entry.log.push(nowMs);
    const oldest = entry.log.oldest() as number;
    if (entry.log.full && oldest > nowMs - windowSeconds * 1000) {
      entry.log.clear();
      return true;
    }
    return false;
  }
}
