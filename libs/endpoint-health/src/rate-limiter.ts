import type { LRUCache } from 'lru-cache';
import { boundedLru } from '@hookrail/toolbox';
import { SlidingLog } from './sliding-log';

/** One limit: at most `count` sends per `durationSeconds` for `key`. */
export interface RateLimit {
  key: string;
  count: number;
  durationSeconds: number;
}

export type RateDecision = { kind: 'allow' } | { kind: 'wait'; untilMs: number; key: string };

interface KeyState {
  log: SlidingLog;
  windowMs: number;
  /** Return times already handed to held deliveries: each later one is spaced one slot further. */
  holdTail: number;
}

export const DEFAULT_MAX_KEYS = 100_000;
/**
 * A slot frees this long after its window: a slot is taken when the request is about to go, and
 * the endpoint sees it a network delay later, which varies (a first request opens its
 * connection). Without it, a delivery sent the moment a slot frees can reach the endpoint within
 * one window of an earlier, slower one, and the endpoint counts one too many.
 */
export const ARRIVAL_MARGIN_MS = 50;

/**
 * Endpoint `rate_limit`/`rate_limit_duration` and subscription `rate_limit_config`.
 * Deliveries are keyed by endpoint, so one dispatcher owns an endpoint and an
 * in-process limiter is exact. A denied delivery is told when to come back; deliveries held at the
 * same moment get successive slots instead of all returning at once.
 */
export class RateLimiter {
  /**
   * One entry per endpoint or subscription seen. Bounded so a flood of distinct keys cannot grow
   * the heap: the least recently used key is forgotten, and a key unused that long has an empty
   * window anyway in every realistic configuration.
   */
  private readonly keys: LRUCache<string, KeyState>;

  constructor(opts: { maxKeys?: number } = {}) {
    this.keys = boundedLru(opts.maxKeys ?? DEFAULT_MAX_KEYS);
  }

  /** Keys currently tracked. */
  get size(): number {
    return this.keys.size;
  }

  /** Takes a slot from every limit, or none: the wait is the latest time any of them allows. */
  take(limits: readonly RateLimit[], nowMs: number): RateDecision {
    const active = limits.filter((l) => l.count > 0 && l.durationSeconds > 0);
    let wait: { untilMs: number; key: string } | undefined;
    for (const l of active) {
      const s = this.state(l);
      const oldest = s.log.oldest();
      if (s.log.full && oldest !== undefined && oldest > nowMs - s.windowMs - ARRIVAL_MARGIN_MS) {
        const allowedAt = oldest + s.windowMs + ARRIVAL_MARGIN_MS;
        if (!wait || allowedAt > wait.untilMs) wait = { untilMs: allowedAt, key: l.key };
      }
    }
    if (wait) {
      const s = this.keys.get(wait.key) as KeyState;
      const slotMs = s.windowMs / s.log.capacity;
      const untilMs = Math.max(wait.untilMs, s.holdTail);
      s.holdTail = untilMs + slotMs;
      return { kind: 'wait', untilMs: Math.ceil(untilMs), key: wait.key };
    }
    for (const l of active) this.state(l).log.push(nowMs);
    return { kind: 'allow' };
  }

  private state(l: RateLimit): KeyState {
    const windowMs = l.durationSeconds * 1000;
    let s = this.keys.get(l.key);
    // A changed limit starts a fresh window (the endpoint or subscription was updated).
    if (!s || s.log.capacity !== l.count || s.windowMs !== windowMs) {
      s = { log: new SlidingLog(l.count), windowMs, holdTail: 0 };
      this.keys.set(l.key, s);
    }
    return s;
  }
}

/** The limits that apply to a delivery: its endpoint's and its subscription's. */
export function deliveryRateLimits(
  endpoint: { _id: string; rate_limit: number; rate_limit_duration: number },
  subscription: { _id: string; rate_limit_config: { count: number; duration: number } | null } | null,
): RateLimit[] {
  const limits: RateLimit[] = [
    {
      key: `endpoint:${endpoint._id}`,
      count: endpoint.rate_limit,
      durationSeconds: endpoint.rate_limit_duration,
    },
  ];
  if (subscription?.rate_limit_config) {
    limits.push({
      key: `subscription:${subscription._id}`,
      count: subscription.rate_limit_config.count,
      durationSeconds: subscription.rate_limit_config.duration,
    });
  }
  return limits;
}
