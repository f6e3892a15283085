import type { DeliveryMessage, FirstSend } from '@hookrail/bus';
import { UnavailableError } from '@hookrail/domain';
import type { DeliveryDoc, DeliveryStatus } from '@hookrail/store';
import type { EventForDelivery } from './build-request';
import type { SendReads } from './send-reads';

/** A delivery in one of these has its outcome: a message that finds it so does nothing more. */
export const FINAL_STATUSES: ReadonlySet<DeliveryStatus> = new Set(['Success', 'Failure', 'Discarded']);

/**
 * What one delivery message has to send: the delivery and its event, or why it is skipped.
 * `retry_recorded`: the retry was recorded but its message not handed on; `interrupted`: an
 * at_most_once send found its own `Processing` marker (a crash mid-request).
 */
export type LoadedDelivery =
  | { kind: 'skip'; reason?: string }
  | {
      kind: 'send' | 'retry_recorded' | 'interrupted';
      delivery: DeliveryDoc;
      event: EventForDelivery | null;
    };

/**
 * How long after a delivery was created its event document may still be missing. The router
 * writes the event beside the first send, not before it, and retries a failed write (a database
 * outage) until it lands: a retry can come back before that. Past this, a missing event was deleted.
 */
export const EVENT_WRITE_GRACE_MS = 15 * 60_000;

/**
 * A delivery sent again (retry, resend, release) has a document: it is read, and a message that
 * finds its outcome already recorded does nothing more. One whose event is not stored yet is
 * retried like an outage (UnavailableError), not discarded.
 */
export async function loadForSend(
  reads: SendReads,
  m: DeliveryMessage,
  now: number = Date.now(),
): Promise<LoadedDelivery> {
  const delivery = await reads.delivery(m.project_id, m.delivery_id);
  if (!delivery) return { kind: 'skip', reason: 'delivery not found, skipping' };
  if (FINAL_STATUSES.has(delivery.status)) return { kind: 'skip' }; // already done: a redelivered message
  // An earlier retry fired again (a scheduler restart): the stored one is handed on instead.
  if (rescheduledSince(delivery, m)) return { kind: 'retry_recorded', delivery, event: null };
  const event = await reads.event(m.project_id, delivery.event_id);
  const forSend = event && {
    _id: event._id,
    event_type: event.event_type,
    raw: event.raw,
    forward_headers: parseHeaders(event.forward_headers_json),
    idempotency_key: event.idempotency_key,
  };
  if (delivery.status === 'Retry' && m.reason === 'initial') {
    // The outcome was recorded but the offset not committed: hand the retry on again (idempotent).
    return { kind: 'retry_recorded', delivery, event: forSend };
  }
  if (delivery.status === 'Processing' && delivery.delivery_mode === 'at_most_once')
    return { kind: 'interrupted', delivery, event: forSend };
  if (!forSend && now - delivery.created_at.getTime() < EVENT_WRITE_GRACE_MS)
    throw new UnavailableError(
      `event ${delivery.event_id} of delivery ${delivery._id} is not stored yet (its router's write is pending)`,
    );
  return { kind: 'send', delivery, event: forSend };
}

/**
 * A fired retry whose delivery has been given a later next attempt since (by an attempt or a hold
 * after this retry was scheduled): its time is the stored one. Every writer of `next_attempt_at`
 * also publishes a retry for it, so handing that on again never loses the delivery.
 */
function rescheduledSince(delivery: DeliveryDoc, m: DeliveryMessage): boolean {
  if (m.reason !== 'retry' || !m.due_at || !delivery.next_attempt_at) return false;
  if (delivery.status !== 'Retry' && delivery.status !== 'Scheduled') return false;
  return delivery.next_attempt_at.getTime() > Date.parse(m.due_at);
}

/** The first send: the router's message carries the delivery and its event; nothing is read. */
export function fromFirstSend(m: DeliveryMessage, f: FirstSend): LoadedDelivery {
  const createdAt = new Date(f.created_at);
  return {
    kind: 'send',
    delivery: {
      _id: m.delivery_id,
      project_id: m.project_id,
      event_id: m.event_id,
      endpoint_id: m.endpoint_id,
      subscription_id: f.subscription_id,
      source_id: f.source_id,
      event_type: f.event_type,
      status: 'Scheduled',
      delivery_mode: f.delivery_mode,
      payload: f.payload,
      attempts_made: 0,
      retries_used: 0,
      next_attempt_at: null,
      status_reason: null,
      attempts: [],
      metadata: {
        siblings: f.siblings,
        ...(f.ordering_key !== undefined && { ordering_key: f.ordering_key }),
      },
      created_at: createdAt,
      updated_at: createdAt,
      deleted_at: null,
    },
    event: {
      _id: m.event_id,
      event_type: f.event_type,
      raw: f.raw,
      forward_headers: f.forward_headers ?? {},
      idempotency_key: f.idempotency_key,
    },
  };
}

/**
 * A first send routed under a configuration token older than the one this sender now knows: the
 * event, so its subscription's current filter can be checked again. Null otherwise.
 */
export function routedUnderOlderConfig(m: DeliveryMessage, token: string) {
  const f = m.first_send;
  if (!f || f.config_version === undefined || f.config_version === token) return null;
  let data: unknown;
  try {
    data = JSON.parse(f.raw);
  } catch {
    data = f.raw;
  }
  return { event_type: f.event_type, data, headers: f.headers ?? {} };
}

function parseHeaders(json: string): Record<string, string> {
  try {
    return JSON.parse(json || '{}') as Record<string, string>;
  } catch {
    return {};
  }
}
