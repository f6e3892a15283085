import { createHash } from 'node:crypto';
import { encodeTime } from 'ulid';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * The delivery of an event to a subscription has one id, whatever the number of times the event
 * message is routed: a ULID whose time is the event's acceptance and whose 80 "random" bits are a
 * hash of (event id, subscription id). Redelivered event messages upsert the same delivery, and
 * ids still sort by time.
 */
export function deliveryId(eventId: string, subscriptionId: string, acceptedAtMs: number): string {
  const digest = createHash('sha256').update(`${eventId}\0${subscriptionId}`).digest();
  let bits = 0n;
  for (let i = 0; i < 10; i++) bits = (bits << 8n) | BigInt(digest[i]);
  let tail = '';
  for (let i = 0; i < 16; i++) {
    tail = CROCKFORD[Number(bits & 31n)] + tail;
    bits >>= 5n;
  }
  return encodeTime(acceptedAtMs, 10) + tail;
}
