import type { DeliveryStatus, SubscriptionDoc } from '@hookrail/store';

/** What a head delivery's recorded status means for its ordering key. */
export type HeadEnd = 'pending' | 'unblocks' | 'blocks';

/**
 * Success always unblocks the key; a Failure (retries exhausted) or a discard only when the
 * subscription's `unblock_on` names it; Retry and Scheduled (held by a gate) keep the head pending.
 * A subscription that is gone (or no longer orders) unblocks whatever ended.
 */
export function headEnd(
  status: DeliveryStatus,
  subscription: Pick<SubscriptionDoc, 'ordering'> | null,
): HeadEnd {
  if (status === 'Success') return 'unblocks';
  if (status === 'Failure' || status === 'Discarded') {
    const unblockOn = subscription?.ordering?.unblock_on ?? ['failure', 'discarded'];
    return unblockOn.includes(status === 'Failure' ? 'failure' : 'discarded') ? 'unblocks' : 'blocks';
  }
  return 'pending';
}
