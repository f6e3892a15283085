import type { Connection } from 'mongoose';
import { scopedSchema } from '../base/schema';
import type { ScopedDoc } from '../base/project-scoped.repository';
import { KEYS_INDEX } from '../list-keys/list-keys';

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
    // The list keys (list-keys/): written by the repository, never by callers.
    keys: { type: [String], default: undefined },
  },
  'events',
);
// One index serves every list and read by id: each event's list keys (its source, endpoints and
// idempotency key, and `*`), then _id, which is the sort, the time range and the cursor
// (list-keys/, docs/database.md). The event_type and status filters have no key: they are applied
// on the scan the keys pick (they rarely come alone, and status changes often).
eventSchema.index(KEYS_INDEX);

export const eventModel = (conn: Connection) =>
  conn.models.Event ?? conn.model<EventDoc>('Event', eventSchema);
