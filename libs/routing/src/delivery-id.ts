import { idFrom } from '@hookrail/domain';

/**
 * The delivery of an event to a subscription has one id, whatever the number of times the event
 * message is routed: a ULID whose time is the event's acceptance and whose random bits derive
 * from (event id, subscription id). Redelivered event messages upsert the same delivery, and ids
 * still sort by time.
 */
export function deliveryId(eventId: string, subscriptionId: string, acceptedAtMs: number): string {
  return idFrom(`${eventId}\0${subscriptionId}`, acceptedAtMs);
}
