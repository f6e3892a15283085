import type { OutboundResult } from '@hookrail/outbound';
import { decideRetry, parseRetryAfter, type RetryPolicy } from './policy';

export type AttemptOutcome =
  | { status: 'Success' }
  | { status: 'Retry'; delaySeconds: number; reason: string }
  | { status: 'Failure'; reason: string };

/** What happened on the wire, or why nothing was sent (e.g. the OAuth2 token could not be had). */
export type AttemptResult = OutboundResult | { kind: 'not_sent'; message: string };

/**
 * A bounded label for an attempt that went on the wire: the status class, or how it failed.
 * (A label per endpoint would be unbounded; this groups endpoints by how they behave.)
 */
export function answerClass(r: OutboundResult): string {
  if (r.kind === 'response') return `${Math.floor(r.status / 100)}xx`;
  return r.code === 'ETIMEDOUT' ? 'timeout' : 'connection_error';
}

/**
 * The delivery's next state after one attempt: a 2xx succeeds;
 * under at_most_once a request that may have reached the endpoint is never sent again; otherwise
 * the retry policy decides, honouring a longer Retry-After on 429/503.
 */
export function decideAttemptOutcome(opts: {
  result: AttemptResult;
  mode: 'at_least_once' | 'at_most_once';
  policy: RetryPolicy;
  retriesUsed: number;
  now?: number;
  random?: () => number;
}): AttemptOutcome {
  const r = opts.result;
  if (r.kind === 'response' && r.status >= 200 && r.status < 300) return { status: 'Success' };
  const reason =
    r.kind === 'response'
      ? `endpoint answered ${r.status}`
      : r.kind === 'error'
        ? `${r.code}: ${r.message}`
        : r.message;
  const mayHaveReached = r.kind === 'response' || (r.kind === 'error' && r.maybeReached);
  if (opts.mode === 'at_most_once' && mayHaveReached) {
    return { status: 'Failure', reason: `${reason} (at_most_once: not sent again)` };
  }
  const retryAfterSeconds =
    r.kind === 'response' && (r.status === 429 || r.status === 503)
      ? parseRetryAfter(r.headers['retry-after'], opts.now)
      : undefined;
  const decision = decideRetry(opts.policy, opts.retriesUsed, { retryAfterSeconds, random: opts.random });
  if (decision.kind === 'give_up') return { status: 'Failure', reason: `${reason} (retries exhausted)` };
  return { status: 'Retry', delaySeconds: decision.delaySeconds, reason };
}
