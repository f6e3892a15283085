import { idFrom } from '@hookrail/domain';
import type { RoutableSubscription, RoutingTarget } from './match-subscriptions';

/**
 * Events aimed at endpoints (single, or fanout to an owner) reach an endpoint that has no
 * subscription at all through a catch-all subscription made for it on first use, as Convoy does:
 * "create an endpoint, send it an event" delivers. Broadcast and source-routed events never create one.
 */
export function endpointsWithoutSubscription(
  target: RoutingTarget,
  subscriptions: readonly Pick<RoutableSubscription, 'endpoint_id'>[],
  ownerEndpointIds: ReadonlySet<string> = new Set(),
): string[] {
  const targeted =
    target.mode === 'single' ? [target.endpoint_id] : target.mode === 'fanout' ? [...ownerEndpointIds] : [];
  if (targeted.length === 0) return [];
  const subscribed = new Set(subscriptions.map((s) => s.endpoint_id));
  return targeted.filter((id) => !subscribed.has(id));
}

/** One id per endpoint, so routers racing to create it (or a redelivered event) make one subscription. */
export function catchAllSubscriptionId(endpointId: string, endpointCreatedAt: Date): string {
  return idFrom(`catch-all:${endpointId}`, endpointCreatedAt);
}
