import type { Connection } from 'mongoose';
import { scopedSchema } from '../base/schema';
import type { ScopedDoc } from '../base/project-scoped.repository';

export type EventStatus = 'Pending' | 'Processing' | 'Success' | 'Failure' | 'Retry';

/**
 * An accepted event. The payload and headers are user JSON, whose keys may contain `.` or `$`,
 * so they are stored as text (`raw`, `headers_json`) and parsed when read.
 */
export interface EventDoc extends ScopedDoc {
  source_id: string | null;
  app_id: string | null;
  event_type: string;
  idempotency_key: string | null;
  is_duplicate_event: boolean;
  status: EventStatus;
  /** Why an event has no deliveries (no matching subscription, duplicate...). */
  status_reason: string | null;
  raw: string;
  headers_json: string;
  forward_headers_json: string;
  url_query_params: string;
  metadata: string;
  endpoints: string[];
  /** Deliveries the router made (their documents appear as they are recorded); see event-status.ts. */
  delivery_count: number;
  target: { mode: string; endpoint_id?: string; owner_id?: string };
  acknowledged_at: Date | null;
  /**
   * What the catalog found wrong with the event when its project checks in warn mode (else empty;
   * absent in events stored before it existed).
   */
  validation_errors?: { field: string; message: string }[];
}

const eventSchema = scopedSchema<EventDoc>(
  {
    source_id: { type: String, default: null },
    app_id: { type: String, default: null },
    event_type: { type: String, default: '' },
    idempotency_key: { type: String, default: null },
    is_duplicate_event: { type: Boolean, default: false },
    status: { type: String, default: 'Pending' },
    status_reason: { type: String, default: null },
    raw: { type: String, default: '' },
    headers_json: { type: String, default: '{}' },
    forward_headers_json: { type: String, default: '{}' },
    url_query_params: { type: String, default: '' },
    metadata: { type: String, default: '' },
    endpoints: { type: [String], default: [] },
    delivery_count: { type: Number, default: 0 },
    target: { type: Object, default: { mode: 'source' } },
    acknowledged_at: { type: Date, default: null },
    validation_errors: { type: [{ _id: false, field: String, message: String }], default: [] },
  },
  'events',
);
// Every list sorts by _id and takes a time range as an _id range (base/id-range.ts), so each index
// ends in _id. The event_type and status filters have no index of their own: they are applied on
// the scan of the index the other filters pick (they rarely come alone, and status changes often).
// events.page/list with no source, endpoint or idempotency key (batch replay by time range)
eventSchema.index({ project_id: 1, _id: -1 });
// events.page/list by source (the API's source_id, batch replay by source)
eventSchema.index({ project_id: 1, source_id: 1, _id: -1 });
// events.page by endpoint (the API's endpoint_id, a portal link's endpoints), findTargeting
eventSchema.index({ project_id: 1, endpoints: 1, _id: -1 });
// events.page by idempotency key
eventSchema.index({ project_id: 1, idempotency_key: 1, _id: -1 });

export const eventModel = (conn: Connection) =>
  conn.models.Event ?? conn.model<EventDoc>('Event', eventSchema);
