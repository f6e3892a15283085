import { LRUCache } from 'lru-cache';
import { matchEventType, matchFilter, type Filter } from '@hookrail/filters';

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
  filter_config: { event_types: string[]; filter: { body_json: string; headers_json: string } };
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

const parsed = new LRUCache<string, { filter: Filter | null }>({ max: 10_000 });

/** Filters are parsed once per distinct text, kept in an LRU bounded well above live subscriptions. */
function parseFilter(json: string | undefined): Filter | null {
  if (!json || json === '{}' || json === 'null') return null;
  let f = parsed.get(json);
  if (f === undefined) {
    f = { filter: JSON.parse(json) as Filter };
    parsed.set(json, f);
  }
  return f.filter;
}

/** Event type, then body filter, then header filter. */
export function subscriptionAccepts(
  sub: RoutableSubscription,
  event: Pick<RoutableEvent, 'event_type' | 'data' | 'headers'>,
): boolean {
  const fc = sub.filter_config;
  if (!matchEventType(fc?.event_types, event.event_type)) return false;
  if (!matchFilter(parseFilter(fc?.filter?.body_json), event.data)) return false;
  return matchFilter(parseFilter(fc?.filter?.headers_json), event.headers);
}

/** Every subscription that should receive the event, at most one per subscription id. */
export function matchSubscriptions<S extends RoutableSubscription>(
  event: RoutableEvent,
  subscriptions: readonly S[],
  ownerEndpointIds?: ReadonlySet<string>,
): S[] {
  const seen = new Set<string>();
  return targetedSubscriptions(event, subscriptions, ownerEndpointIds).filter((s) => {
    if (seen.has(s._id) || !subscriptionAccepts(s, event)) return false;
    seen.add(s._id);
    return true;
  });
}
