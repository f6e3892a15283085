import { deliveryKeys } from '../list-keys/list-keys';
import type { DeliveryAttempt, DeliveryDoc, DeliveryStatus } from './delivery.schema';

/**
 * The record of what happened to a delivery: its new status and, when a request went out, the
 * attempt. The delivery may have no document yet (its first send carried everything in the Kafka
 * message), so the write creates it from `delivery` or updates the existing one.
 */
export interface DeliveryOutcome {
  delivery: DeliveryDoc;
  status: DeliveryStatus;
  reason: string | null;
  nextAttemptAt: Date | null;
  attempt: DeliveryAttempt | null;
  /** A failed attempt that uses up one of the delivery's retries. */
  retrySpent: boolean;
  /** The delivery had no document when it was sent (a first send): it is inserted whole. */
  firstRecord: boolean;
}

/** The whole document of a delivery recorded for the first time (the cheapest write), with its list keys. */
export function firstDocument(o: DeliveryOutcome, now: Date): DeliveryDoc & { keys: string[] } {
  return {
    ...o.delivery,
    status: o.status,
    keys: deliveryKeys(o.delivery, o.status),
    status_reason: o.reason,
    next_attempt_at: o.nextAttemptAt,
    attempts: o.attempt ? [o.attempt] : [],
    attempts_made: o.attempt ? 1 : 0,
    retries_used: o.retrySpent ? 1 : 0,
    updated_at: now,
    deleted_at: null,
  };
}

/** Fields fixed when a delivery is created; an existing document keeps its own. */
function creationFields(d: DeliveryDoc, withAttempts: boolean): Record<string, unknown> {
  return {
    event_id: d.event_id,
    endpoint_id: d.endpoint_id,
    subscription_id: d.subscription_id,
    source_id: d.source_id,
    event_type: d.event_type,
    delivery_mode: d.delivery_mode,
    payload: d.payload,
    metadata: d.metadata,
    created_at: d.created_at,
    deleted_at: null,
    ...(withAttempts ? {} : { attempts: [] }),
  };
}

/** One upsert per outcome: create-or-update, attempt appended, counters incremented atomically. */
export function outcomeUpsert(o: DeliveryOutcome, now: Date) {
  return {
    updateOne: {
      filter: { _id: o.delivery._id, project_id: o.delivery.project_id },
      update: {
        $setOnInsert: creationFields(o.delivery, o.attempt !== null),
        $set: {
          status: o.status,
          keys: deliveryKeys(o.delivery, o.status),
          status_reason: o.reason,
          next_attempt_at: o.nextAttemptAt,
          updated_at: now,
        },
        $inc: { attempts_made: o.attempt ? 1 : 0, retries_used: o.retrySpent ? 1 : 0 },
        ...(o.attempt ? { $push: { attempts: o.attempt } } : {}),
      },
      upsert: true,
    },
  };
}

/** The at_most_once marker: `Processing` before the request goes out, the document created if needed. */
export function processingUpsert(d: DeliveryDoc, now: Date) {
  return {
    filter: { _id: d._id, project_id: d.project_id },
    update: {
      $setOnInsert: { ...creationFields(d, false), attempts_made: 0, retries_used: 0, next_attempt_at: null },
      $set: {
        status: 'Processing' as DeliveryStatus,
        keys: deliveryKeys(d, 'Processing'),
        status_reason: null,
        updated_at: now,
      },
    },
  };
}
