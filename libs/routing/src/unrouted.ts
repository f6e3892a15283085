import { matchEventType } from '@hookrail/filters';
import {
  subscriptionsAimedAt,
  targetedSubscriptions,
  type RoutableEvent,
  type RoutableSubscription,
  type RoutingTarget,
} from './match-subscriptions';

/** Why an event reached no endpoint: a stable code (metric label, log field) and a sentence for people. */
export interface Unrouted {
  code:
    | 'no_source'
    | 'owner_has_no_endpoints'
    | 'no_subscription'
    | 'other_sources_only'
    | 'event_type_not_subscribed'
    | 'filter_rejected'
    | 'endpoint_not_found';
  reason: string;
}

/**
 * Explains an event that matched nothing, from the same inputs routing used. Checked in routing's
 * order: what the target selects, then event types, then filters.
 */
export function explainUnrouted(
  event: Pick<RoutableEvent, 'source_id' | 'target' | 'event_type'>,
  subscriptions: readonly RoutableSubscription[],
  ownerEndpointIds: ReadonlySet<string> = new Set(),
): Unrouted {
  const t = event.target;
  if (t.mode === 'source' && !event.source_id)
    return { code: 'no_source', reason: 'the event has no source and no endpoint target' };
  if (t.mode === 'fanout' && ownerEndpointIds.size === 0)
    return { code: 'owner_has_no_endpoints', reason: `owner_id ${t.owner_id} has no endpoints` };
  const targeted = targetedSubscriptions(event, subscriptions, ownerEndpointIds);
  if (targeted.length === 0 && subscriptionsAimedAt(t, subscriptions, ownerEndpointIds).length > 0)
    return {
      code: 'other_sources_only',
      reason: `the subscriptions ${scope(t, event)} all name ${event.source_id ? 'other sources' : 'a source'}: a subscription with a source receives only that source's events`,
    };
  if (targeted.length === 0) return { code: 'no_subscription', reason: `no subscription ${scope(t, event)}` };
  const typed = targeted.filter((s) => matchEventType(s.filter_config?.event_types, event.event_type));
  if (typed.length === 0)
    return {
      code: 'event_type_not_subscribed',
      reason: `event type "${event.event_type}" is not among the event types of ${count(targeted)} ${scope(t, event)}`,
    };
  return {
    code: 'filter_rejected',
    reason: `the filters of ${count(typed)} ${scope(t, event)} rejected the event`,
  };
}

/** Subscriptions matched but none of their endpoints exists any more. */
export const ENDPOINT_NOT_FOUND: Unrouted = {
  code: 'endpoint_not_found',
  reason: 'the endpoints of the matching subscriptions no longer exist',
};

function count(subs: readonly unknown[]): string {
  return subs.length === 1 ? 'the subscription' : `all ${subs.length} subscriptions`;
}

function scope(t: RoutingTarget, event: Pick<RoutableEvent, 'source_id'>): string {
  switch (t.mode) {
    case 'source':
      return `for source ${event.source_id}`;
    case 'single':
      return `for endpoint ${t.endpoint_id}`;
    case 'fanout':
      return `for the endpoints of owner_id ${t.owner_id}`;
    case 'broadcast':
      return 'in the project';
  }
}
