import { boundedLru } from '@hookrail/toolbox';
import { matchEventType } from './event-type';
import { matchFilter } from './match-filter';
import type { Filter } from './types';

/** A subscription's `filter_config` as stored: event types, and body and header filters as JSON text. */
export interface FilterConfig {
  event_types: string[];
  filter: { body_json: string; headers_json: string };
}

/** What of an event a filter configuration judges. */
export interface FilterableEvent {
  event_type: string;
  data: unknown;
  headers: Record<string, string>;
}

const parsed = boundedLru<string, { filter: Filter | null }>(10_000);

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

/**
 * Event type, then body filter, then header filter: the one rule the router (which deliveries to
 * make) and the sender (whether a delivery is still wanted) share.
 */
export function filterConfigAccepts(fc: FilterConfig | undefined, event: FilterableEvent): boolean {
  if (!matchEventType(fc?.event_types, event.event_type)) return false;
  if (!matchFilter(parseFilter(fc?.filter?.body_json), event.data)) return false;
  return matchFilter(parseFilter(fc?.filter?.headers_json), event.headers);
}
