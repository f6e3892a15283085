import { resolvePath } from '@hookrail/filters';
import type { SubscriptionDoc } from '@hookrail/store';

/** The ordering key of every delivery of an endpoint-ordered subscription. */
const ENDPOINT_ORDERING_KEY = 'endpoint';

/**
 * The ordering key a subscription gives one event's delivery (docs/ordered-delivery.md): null
 * when the subscription does not order, `endpoint`, or `key:<value>` read from the event's data
 * or headers. An event without a usable value (missing, or an object or array) is ordered under
 * the empty key `key:`, so it still keeps its place among the other keyless events.
 */
export function orderingKeyOf(
  sub: Pick<SubscriptionDoc, 'ordering'>,
  event: { data: unknown; headers: Record<string, string> },
): string | null {
  const ordering = sub.ordering;
  if (!ordering) return null;
  if (ordering.mode === 'endpoint' || !ordering.key) return ENDPOINT_ORDERING_KEY;
  const value =
    'body_path' in ordering.key
      ? resolvePath(event.data, ordering.key.body_path)[0]
      : event.headers[ordering.key.header];
  return `key:${scalar(value) ?? ''}`;
}

function scalar(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return null;
}
