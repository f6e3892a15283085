import type { EventMessage } from '@hookrail/bus';
import type { EventDoc, EventStatus } from '@hookrail/store';

/** The event document for an accepted event message, with the routing result. */
export function eventDocument(
  m: EventMessage,
  routed: {
    status: EventStatus;
    reason: string | null;
    endpoints: string[];
    deliveries?: number;
    duplicate?: boolean;
  },
): EventDoc {
  const now = new Date();
  return {
    _id: m.event_id,
    project_id: m.project_id,
    source_id: m.source_id ?? null,
    app_id: null,
    event_type: m.event_type,
    idempotency_key: m.idempotency_key ?? null,
    is_duplicate_event: routed.duplicate ?? false,
    status: routed.status,
    status_reason: routed.reason,
    raw: m.raw,
    headers_json: JSON.stringify(m.headers),
    forward_headers_json: JSON.stringify(m.forward_headers ?? {}),
    url_query_params: m.url_query_params ?? '',
    metadata: '',
    endpoints: routed.endpoints,
    delivery_count: routed.deliveries ?? 0,
    target: m.target,
    acknowledged_at: new Date(m.accepted_at),
    validation_errors: m.validation_errors ?? [],
    created_at: now,
    updated_at: now,
    deleted_at: null,
  };
}
