import { deliveryKeys } from '../list-keys/list-keys';
import type { DeliveryAttempt, DeliveryDoc, DeliveryStatus } from './delivery.schema';
import type { RetryOutcomeDoc } from './retry-outcome.schema';
import type { RetryState } from './fold-retry-outcomes';

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
    rev: 0,
  };
}

/**
 * A failed attempt of a delivery read in `Retry` that leaves it in `Retry` changes neither its
 * status nor its list keys: it is appended beside the document (an insert) instead of written
 * into it (an update, which the local server pays about eight inserts for; docs/database.md).
 * Not for at_most_once deliveries, whose document was marked `Processing` since it was read.
 */
export function appendsRetryOutcome(o: DeliveryOutcome): o is DeliveryOutcome & { attempt: DeliveryAttempt } {
  return (
    !o.firstRecord &&
    o.status === 'Retry' &&
    o.retrySpent &&
    o.attempt !== null &&
    o.delivery.status === 'Retry' &&
    o.delivery.delivery_mode !== 'at_most_once'
  );
}

/**
 * Where a delivery left in `Retry` by this outcome stands once it is durable, as its writer knows
 * without reading it back (null for any other status): counted on from the state it was read in,
 * under the `rev` the write leaves (an insert 0, an appended outcome the one read, an upsert one
 * more). A concurrent write of the document makes that `rev` wrong, so the state is not used.
 */
export function retryStateAfter(o: DeliveryOutcome): RetryState | null {
  if (o.status !== 'Retry') return null;
  const read = o.firstRecord ? { rev: 0, attempts_made: 0, retries_used: 0 } : o.delivery;
  const rev = (read.rev ?? 0) + (o.firstRecord || appendsRetryOutcome(o) ? 0 : 1);
  return {
    rev,
    attempts_made: read.attempts_made + (o.attempt ? 1 : 0),
    retries_used: read.retries_used + (o.retrySpent ? 1 : 0),
    next_attempt_at: o.nextAttemptAt,
    status_reason: o.reason,
  };
}

/** The appended record of such an outcome (retry-outcome.schema.ts). */
export function retryOutcomeDocument(
  o: DeliveryOutcome & { attempt: DeliveryAttempt },
  now: Date,
): RetryOutcomeDoc {
  return {
    _id: o.attempt.uid,
    project_id: o.delivery.project_id,
    delivery_id: o.delivery._id,
    rev: o.delivery.rev ?? 0,
    attempt: o.attempt,
    status_reason: o.reason,
    next_attempt_at: o.nextAttemptAt,
    created_at: o.delivery.created_at,
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
        $inc: { attempts_made: o.attempt ? 1 : 0, retries_used: o.retrySpent ? 1 : 0, rev: 1 },
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
      $inc: { rev: 1 },
    },
  };
}
