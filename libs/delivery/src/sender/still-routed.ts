import { filterConfigAccepts, type FilterConfig, type FilterableEvent } from '@hookrail/filters';

/**
 * Why a delivery may no longer be sent because its subscription changed after it was made, or
 * null when it may. The subscription must still exist and point at the delivery's endpoint; when
 * the event is given (a first send routed under an older configuration), the subscription's
 * current event types and filters must still accept it. A delivery already made and waiting for a
 * retry is not filtered again: the filter decides which events make deliveries.
 */
export function subscriptionChangeReason(
  subscription: { endpoint_id: string; filter_config: FilterConfig } | null,
  endpointId: string,
  event: FilterableEvent | null,
): string | null {
  if (!subscription) return 'subscription deleted';
  if (subscription.endpoint_id !== endpointId) return 'subscription now targets another endpoint';
  if (event && !filterConfigAccepts(subscription.filter_config, event))
    return 'subscription filter changed: the event no longer matches';
  return null;
}
