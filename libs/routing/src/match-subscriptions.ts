import { filterConfigAccepts, type FilterConfig } from '@hookrail/filters';

/** Where an event goes (libs/bus EventTarget, restated so the matching rules stay free of the bus). */
export type RoutingTarget =
  | { mode: 'source' }
  | { mode: 'single'; endpoint_id: string }
  | { mode: 'fanout'; owner_id: string }
  | { mode: 'broadcast' };

/** The subscription fields routing reads. Filters are stored as JSON text (libs/store). */
export interface RoutableSubscription {
  _id: string;
  source_id: string | null;
  endpoint_id: string;
  filter_config: FilterConfig;
}

export interface RoutableEvent {
  source_id?: string | null;
  event_type: string;
  target: RoutingTarget;
  data: unknown;
  headers: Record<string, string>;
}

/**
 * Subscriptions selected by the event's target, before type and filter checks:
 * source mode (incoming projects) by source id; single by endpoint; fanout by the endpoints of
 * the owner; broadcast every subscription of the project.
 */
export function targetedSubscriptions<S extends RoutableSubscription>(
  event: Pick<RoutableEvent, 'source_id' | 'target'>,
  subscriptions: readonly S[],
  ownerEndpointIds: ReadonlySet<string> = new Set(),
): S[] {
  const t = event.target;
  switch (t.mode) {
    case 'source':
      return event.source_id ? subscriptions.filter((s) => s.source_id === event.source_id) : [];
    case 'single':
      return subscriptions.filter((s) => s.endpoint_id === t.endpoint_id);
    case 'fanout':
      return subscriptions.filter((s) => ownerEndpointIds.has(s.endpoint_id));
    case 'broadcast':
      return [...subscriptions];
    default:
      return [];
  }
}

/** Every subscription that should receive the event, at most one per subscription id. */
export function matchSubscriptions<S extends RoutableSubscription>(
  event: RoutableEvent,
  subscriptions: readonly S[],
  ownerEndpointIds?: ReadonlySet<string>,
): S[] {
  const seen = new Set<string>();
  return targetedSubscriptions(event, subscriptions, ownerEndpointIds).filter((s) => {
    if (seen.has(s._id) || !filterConfigAccepts(s.filter_config, event)) return false;
    seen.add(s._id);
    return true;
  });
}
