/**
 * Retry policy: the subscription's retry_config, else the project's
 * strategy. `retry_count` is the number of retries after the first attempt.
 */
export interface RetryPolicy {
  type: 'linear' | 'exponential';
  /** Seconds: the wait for linear, the base for exponential. */
  duration: number;
  retry_count: number;
  /** Cap for exponential waits (seconds). */
  max_retry_seconds?: number;
}

export type RetryDecision = { kind: 'retry'; delaySeconds: number } | { kind: 'give_up' };

/** Cap of exponential waits when the policy sets none (seconds). */
export const DEFAULT_MAX_RETRY_SECONDS = 7200;
const JITTER = 0.1;

/**
 * What to do after the `retriesUsed + 1`-th failed attempt. `retryAfterSeconds` (from a 429/503
 * Retry-After) wins when it asks for a longer wait. `random` in [0,1) makes jitter testable.
 */
export function decideRetry(
  policy: RetryPolicy,
  retriesUsed: number,
  opts: { retryAfterSeconds?: number; random?: () => number } = {},
): RetryDecision {
  if (retriesUsed >= policy.retry_count) return { kind: 'give_up' };
  let delay: number;
  if (policy.type === 'exponential') {
    const cap = policy.max_retry_seconds ?? DEFAULT_MAX_RETRY_SECONDS;
    const base = Math.min(policy.duration * 2 ** retriesUsed, cap);
    delay = Math.min(base * (1 + JITTER * (opts.random ?? Math.random)()), cap);
  } else {
    delay = policy.duration;
  }
  if (opts.retryAfterSeconds !== undefined && opts.retryAfterSeconds > delay) delay = opts.retryAfterSeconds;
  return { kind: 'retry', delaySeconds: delay };
}

/** Parses a Retry-After header: delta seconds or an HTTP date. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, (at - now) / 1000);
}
