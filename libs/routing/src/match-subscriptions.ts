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
 * Subscriptions selected by the event's target, before type and filter checks: source mode
 * (incoming projects) by source id; the other modes by the endpoints they aim at, of which each
 * endpoint's subscriptions that fit the event's origin (sourceFitting).
 */
export function targetedSubscriptions<S extends RoutableSubscription>(
  event: Pick<RoutableEvent, 'source_id' | 'target'>,
  subscriptions: readonly S[],
  ownerEndpointIds: ReadonlySet<string> = new Set(),
): S[] {
  if (event.target.mode === 'source')
    return event.source_id ? subscriptions.filter((s) => s.source_id === event.source_id) : [];
  return sourceFitting(event, subscriptionsAimedAt(event.target, subscriptions, ownerEndpointIds));
}

/** Single: the endpoint's subscriptions; fanout: those of the owner's endpoints; broadcast: all (source: none, chosen by source). */
export function subscriptionsAimedAt<S extends RoutableSubscription>(
  target: RoutingTarget,
  subscriptions: readonly S[],
  ownerEndpointIds: ReadonlySet<string>,
): S[] {
  switch (target.mode) {
    case 'single':
      return subscriptions.filter((s) => s.endpoint_id === target.endpoint_id);
    case 'fanout':
      return subscriptions.filter((s) => ownerEndpointIds.has(s.endpoint_id));
    case 'broadcast':
      return [...subscriptions];
    case 'source':
      return [];
  }
}

/**
 * A subscription that names a source receives only that source's events. An event aimed at
 * endpoints (the events API, or a broker source of an outgoing project) therefore reaches, per
 * endpoint, the subscriptions naming its source when the endpoint has any, else the endpoint's
 * subscriptions without a source, never both kinds: an endpoint with a source's subscription
 * beside a general one gets an event once, not once through each.
 */
function sourceFitting<S extends RoutableSubscription>(
  event: Pick<RoutableEvent, 'source_id'>,
  candidates: readonly S[],
): S[] {
  const source = event.source_id || null;
  const namingSource = new Set(
    source === null ? [] : candidates.filter((s) => s.source_id === source).map((s) => s.endpoint_id),
  );
  return candidates.filter((s) => (s.source_id ? s.source_id === source : !namingSource.has(s.endpoint_id)));
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
