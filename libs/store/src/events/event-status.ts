import type { DeliveryStatus } from '../deliveries/delivery.schema';
import type { EventDoc, EventStatus } from './event.schema';

/*
 * An event's status reflects its deliveries (eventStatusFrom below). The router stores the event once,
 * with the status routing decided: final when it made no delivery to send (no match, duplicate,
 * every delivery discarded), `Processing` otherwise. From then on the deliveries carry the truth,
 * so no write per event follows a delivery's outcome: the status is derived when the event is read.
 */

/**
 * An event's status from its deliveries: in flight while any is scheduled or being sent; Retry
 * while any waits for a retry; Success when all succeeded; otherwise Failure (a failed or
 * discarded delivery). No deliveries: Failure (nothing matched).
 */
export function eventStatusFrom(statuses: readonly DeliveryStatus[]): EventStatus {
  if (statuses.length === 0) return 'Failure';
  if (statuses.some((s) => s === 'Scheduled' || s === 'Processing')) return 'Processing';
  if (statuses.includes('Retry')) return 'Retry';
  if (statuses.every((s) => s === 'Success')) return 'Success';
  return 'Failure';
}

/** Whether the stored status is only a placeholder until the deliveries are read. */
export function needsDeliveries(e: Pick<EventDoc, 'status'>): boolean {
  return e.status === 'Processing';
}

/**
 * The status of a routed event from the statuses of the delivery documents found. A delivery on
 * its first send has no document yet: fewer documents than the router made means Processing.
 */
export function derivedStatus(
  e: Pick<EventDoc, 'status' | 'delivery_count'>,
  found: readonly DeliveryStatus[],
): EventStatus {
  if (!needsDeliveries(e)) return e.status;
  if (found.length === 0 || found.length < (e.delivery_count ?? 0)) return 'Processing';
  return eventStatusFrom(found);
}
