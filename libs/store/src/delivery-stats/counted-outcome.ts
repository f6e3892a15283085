import type { ProjectId } from '@hookrail/domain';

/**
 * One recorded delivery outcome, as the sender reports it to the per-minute counters
 * (`delivery_stats`) and the event-type catalog (`event_types_seen`). Declared here, beside the
 * documents it ends up in, so the sender that reports it and the buffer that adds it up share
 * one definition without importing each other.
 */
export interface CountedOutcome {
  projectId: ProjectId;
  endpointId: string;
  /** Also recorded in the event-type catalog (the portal's "event types seen so far"). */
  eventType: string;
  status: string;
  /** The attempt's latency; null when no request was made (discarded before sending). */
  latencyMs: number | null;
  at: number;
}
