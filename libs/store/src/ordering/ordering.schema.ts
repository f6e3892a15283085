import type { Connection } from 'mongoose';
import { Schema } from 'mongoose';
import type { ProjectId } from '@hookrail/domain';

/**
 * An ordering key that is blocked (docs/ordered-delivery.md): its head delivery has not ended yet
 * and at least one later delivery waits behind it, or the head is waiting for a retry. A key
 * whose deliveries go out one after the other without waiting has no document.
 */
export interface OrderingKeyDoc {
  /** `<endpoint id>/<ordering key>`. */
  _id: string;
  project_id: ProjectId;
  endpoint_id: string;
  /**
   * The deployment (Kafka topic prefix) whose dispatchers own the key: deployments sharing a
   * database (test runs) never sweep each other's keys.
   */
  deployment: string;
  /** `endpoint` for endpoint ordering, `key:<value>` for key ordering. */
  key: string;
  /** The delivery that must end before the next one of the key is sent. */
  head: string;
  /** Since when the head holds the key (the head became head, or was first seen not ending). */
  blocked_since: Date;
  /** The head ended in a state that does not unblock the key (unblock_on): an operator must skip it. */
  head_status: string | null;
  /** An operator asked to skip the head: the owning dispatcher discards it and releases the next. */
  skip_requested_at: Date | null;
  updated_at: Date;
}

/** A delivery held behind its key's head, with the message that sends it once released. */
export interface HeldDeliveryDoc {
  /** The delivery id. */
  _id: string;
  project_id: ProjectId;
  endpoint_id: string;
  key: string;
  /** Arrival order within the key: released lowest first. */
  seq: number;
  /**
   * The delivery message as it arrived, as JSON text (its first send carries everything the send
   * needs; its headers' names are user input, not safe document keys).
   */
  message_json: string;
  created_at: Date;
}

const orderingKeySchema = new Schema<OrderingKeyDoc>(
  {
    _id: { type: String, required: true },
    project_id: { type: String, required: true },
    endpoint_id: { type: String, required: true },
    deployment: { type: String, default: '' },
    key: { type: String, required: true },
    head: { type: String, required: true },
    blocked_since: { type: Date, required: true },
    head_status: { type: String, default: null },
    skip_requested_at: { type: Date, default: null },
    updated_at: { type: Date, required: true },
  },
  { collection: 'ordering_keys', versionKey: false, _id: false, minimize: false },
);
// orderingKeys.ofEndpoint (the owning dispatcher loads an endpoint's blocked keys; the API lists them)
orderingKeySchema.index({ project_id: 1, endpoint_id: 1, _id: 1 });
// orderingKeys.allBlocked (the dispatcher's sweep over the endpoints it owns)
orderingKeySchema.index({ deployment: 1, updated_at: 1 });

const heldDeliverySchema = new Schema<HeldDeliveryDoc>(
  {
    _id: { type: String, required: true },
    project_id: { type: String, required: true },
    endpoint_id: { type: String, required: true },
    key: { type: String, required: true },
    seq: { type: Number, required: true },
    message_json: { type: String, required: true },
    created_at: { type: Date, required: true },
  },
  { collection: 'held_deliveries', versionKey: false, _id: false, minimize: false },
);
// held.next (the lowest seq of a key is released), held.countsOf, held.ofEndpoint
heldDeliverySchema.index({ project_id: 1, endpoint_id: 1, key: 1, seq: 1 });

export const orderingKeyModel = (conn: Connection) =>
  conn.models.OrderingKey ?? conn.model<OrderingKeyDoc>('OrderingKey', orderingKeySchema);
export const heldDeliveryModel = (conn: Connection) =>
  conn.models.HeldDelivery ?? conn.model<HeldDeliveryDoc>('HeldDelivery', heldDeliverySchema);
