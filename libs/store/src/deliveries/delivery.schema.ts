import type { Connection } from 'mongoose';
import { Mixed, scopedSchema } from '../base/schema';
import type { ScopedDoc } from '../base/project-scoped.repository';
import { KEYS_INDEX } from '../list-keys/list-keys';

export type DeliveryStatus = 'Scheduled' | 'Processing' | 'Success' | 'Retry' | 'Failure' | 'Discarded';

export interface DeliveryAttempt {
  uid: string;
  url: string;
  method: string;
  /** Header objects are stored as JSON text: user header names are not safe document keys. */
  request_headers_json: string;
  response_headers_json: string;
  http_status: number | null;
  response_data: string;
  error: string | null;
  latency_ms: number;
  created_at: Date;
}

export interface DeliveryDoc extends ScopedDoc {
  event_id: string;
  endpoint_id: string;
  subscription_id: string;
  source_id: string | null;
  event_type: string;
  status: DeliveryStatus;
  delivery_mode: 'at_least_once' | 'at_most_once';
  /** Payload after the subscription function, as sent (null: send the event's payload). */
  payload: string | null;
  attempts_made: number;
  /** Retries spent (failed attempts after the first); held deliveries do not spend any. */
  retries_used: number;
  next_attempt_at: Date | null;
  status_reason: string | null;
  attempts: DeliveryAttempt[];
  metadata: Record<string, unknown>;
  /**
   * How many times the document was written after its insert (absent: never): retry outcomes
   * appended beside it carry the `rev` they saw (retry-outcome.schema.ts). The store's own.
   */
  rev?: number;
}

const deliverySchema = scopedSchema<DeliveryDoc>(
  {
    event_id: { type: String, required: true },
    endpoint_id: { type: String, required: true },
    subscription_id: { type: String, required: true },
    source_id: { type: String, default: null },
    event_type: { type: String, default: '' },
    status: { type: String, default: 'Scheduled' },
    delivery_mode: { type: String, default: 'at_least_once' },
    payload: { type: String, default: null },
    attempts_made: { type: Number, default: 0 },
    retries_used: { type: Number, default: 0 },
    next_attempt_at: { type: Date, default: null },
    status_reason: { type: String, default: null },
    attempts: { type: [Mixed], default: [] },
    metadata: { type: Mixed, default: {} },
    rev: { type: Number, default: undefined },
    // The list keys (list-keys/): written by the repository with every status, never by callers.
    keys: { type: [String], default: undefined },
  },
  'event_deliveries',
);
// One index serves every list and read by id: each delivery's list keys (its event, endpoint,
// status, endpoint and status, and `*`), then _id, which is the sort, the time range and the
// cursor (list-keys/, docs/database.md). The subscription filter is applied on the scan of `*`.
deliverySchema.index(KEYS_INDEX);

export const deliveryModel = (conn: Connection) =>
  conn.models.Delivery ?? conn.model<DeliveryDoc>('Delivery', deliverySchema);
