import type { Static } from '@sinclair/typebox';
import {
  int,
  nonEmpty,
  nullable,
  nullableTimestamp,
  object,
  resource,
  str,
  timestamp,
} from './common.schema';

/**
 * An ordering key of an endpoint that holds deliveries (docs/ordered-delivery.md): its head is the
 * delivery that must end before the next is sent.
 */
export const blockedKeyResponse = resource({
  /** `endpoint`, or `key:<value>`. */
  key: str(),
  head_delivery_id: str(),
  /** Deliveries waiting behind the head. */
  held: int(),
  blocked_since: timestamp,
  /** Set when the head ended in a state that does not unblock the key (unblock_on): skip it. */
  head_status: nullable(str()),
  /** An operator asked to skip the head; the dispatcher carries it out within a second or so. */
  skip_requested_at: nullableTimestamp,
});
export type BlockedKeyResponse = Static<typeof blockedKeyResponse>;

/** Skip the head of one key: it is recorded Discarded and the next held delivery is sent. */
export const unblockKeyBody = object(
  {
    key: nonEmpty(1000),
    /** The head the operator saw: nothing is skipped if another delivery is the head by now. */
    head_delivery_id: nonEmpty(100),
  },
  ['key', 'head_delivery_id'],
);
export type UnblockKeyBody = Static<typeof unblockKeyBody>;
