import type { ProjectId } from '@hookrail/domain';
import type { ScheduleDoc } from '@hookrail/store';
import type { TraceContext } from '@hookrail/telemetry';

/** What a retry message asks for (the `retries` topic's message, by shape). */
export interface RetryRequest {
  delivery_id: string;
  project_id: ProjectId;
  endpoint_id: string;
  due_at: string;
  reason: string;
  kind?: 'delivery' | 'meta';
  event_id?: string;
  meta_event_type?: string;
}

/**
 * The durable entry for a retry request, or why it cannot be scheduled. The id is derived from the
 * request, so a redelivered retry message maps to the same entry. A delivery's entry without
 * `event_id` (older messages) gets it from the delivery before it is stored.
 */
export function scheduleEntry(
  req: RetryRequest,
  at: { shard: string; trace?: TraceContext; now: Date },
): { kind: 'entry'; doc: ScheduleDoc } | { kind: 'invalid'; reason: string } {
  const kind = req.kind ?? 'delivery';
  const dueMs = Date.parse(req.due_at);
  if (Number.isNaN(dueMs)) return { kind: 'invalid', reason: 'retry message with an invalid due_at' };
  if (kind === 'meta' && !req.meta_event_type)
    return { kind: 'invalid', reason: 'meta retry message without meta_event_type' };
  return {
    kind: 'entry',
    doc: {
      _id: `${kind}:${req.delivery_id}@${dueMs}`,
      shard: at.shard,
      kind,
      target_id: req.delivery_id,
      project_id: req.project_id,
      endpoint_id: req.endpoint_id,
      event_id: req.event_id ?? null,
      meta_event_type: req.meta_event_type ?? null,
      due_at: new Date(dueMs),
      reason: req.reason,
      traceparent: at.trace?.traceparent ?? null,
      tracestate: at.trace?.tracestate ?? null,
      created_at: at.now,
    },
  };
}
