import { DEFAULT_MAX_RETRY_SECONDS, type RetryPolicy } from '@hookrail/retry';
import type { MetaEventDoc, MetaEventStatus, ProjectConfig } from '@hookrail/store';

/** The body sent and stored as `metadata.raw`: exactly these bytes are signed. */
export function metaPayload(eventType: string, data: unknown): string {
  return JSON.stringify({ event_type: eventType, data: data ?? null });
}

/** Retry settings snapshotted from the project strategy when the meta event is recorded. */
export function initialMetadata(raw: string, strategy: ProjectConfig['strategy']): MetaEventDoc['metadata'] {
  return {
    raw,
    strategy: strategy.type,
    interval_seconds: strategy.duration,
    max_retry_seconds: strategy.max_retry_seconds ?? DEFAULT_MAX_RETRY_SECONDS,
    num_trials: 0,
    retry_limit: strategy.retry_count,
    next_send_time: null,
  };
}

export function policyOf(metadata: MetaEventDoc['metadata']): RetryPolicy {
  return {
    type: metadata.strategy === 'exponential' ? 'exponential' : 'linear',
    duration: metadata.interval_seconds,
    retry_count: metadata.retry_limit,
    max_retry_seconds: metadata.max_retry_seconds,
  };
}

/**
 * Whether a message should (re)send a stored meta event. A new occurrence sends only while the
 * record is fresh (`Scheduled`) or was interrupted mid-send (`Processing`): in `Retry` its retry
 * is already scheduled. A message naming the meta event (due retry or resend) also sends from
 * `Retry`. Final states are never sent again by a stale duplicate; a resend resets them to
 * `Scheduled` first.
 */
export function shouldSend(status: MetaEventStatus, byId: boolean): boolean {
  switch (status) {
    case 'Scheduled':
    case 'Processing':
      return true;
    case 'Retry':
      return byId;
    case 'Success':
    case 'Failure':
    case 'Discarded':
      return false;
  }
}
