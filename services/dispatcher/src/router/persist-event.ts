import type { EventMessage } from '@hookrail/bus';
import type { Store } from '@hookrail/store';
import type { Logger } from '@hookrail/telemetry';

/** Writes the accepted event (idempotent on its id, so a redelivered message changes nothing). */
export async function persistEvent(store: Store, m: EventMessage, logger: Logger): Promise<void> {
  await store.events.insert(m.project_id, {
    _id: m.event_id,
    source_id: m.source_id ?? null,
    app_id: null,
    event_type: m.event_type,
    idempotency_key: m.idempotency_key ?? null,
    is_duplicate_event: false,
    status: 'Pending',
    status_reason: null,
    raw: m.raw,
    headers_json: JSON.stringify(m.headers),
    forward_headers_json: JSON.stringify(m.forward_headers ?? {}),
    url_query_params: m.url_query_params ?? '',
    metadata: '',
    endpoints: [],
    target: m.target,
    acknowledged_at: new Date(m.accepted_at),
  });
  logger.debug({ project_id: m.project_id, event_id: m.event_id }, 'event stored');
}
