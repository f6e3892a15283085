import { ValidationError } from '@hookrail/domain';
import type { OrderingKeyInput, SubscriptionCreateBody } from '@hookrail/api-contract';
import type { OrderingConfig, SubscriptionDoc } from '@hookrail/store';

type OrderingBody = Pick<SubscriptionCreateBody, 'ordering' | 'ordering_key' | 'ordering_unblock_on'>;

/** Dot-separated segments of letters, digits, `_`, `-` or `$` (array indexes are digits). */
const BODY_PATH = /^[A-Za-z0-9_$-]+(\.[A-Za-z0-9_$-]+)*$/;
/** An HTTP field name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const DEFAULT_UNBLOCK: OrderingConfig['unblock_on'] = ['failure', 'discarded'];

function invalid(field: string, message: string): never {
  throw new ValidationError(`${field} ${message}`, [{ field, message }]);
}

/** Whether the body says anything about ordering (an update that does not keeps the stored setting). */
export function mentionsOrdering(body: OrderingBody): boolean {
  return body.ordering !== undefined || body.ordering_key != null || body.ordering_unblock_on !== undefined;
}

/**
 * The stored ordering of a subscription from the request (docs/ordered-delivery.md): members
 * left out keep the current value. `none` is stored as null, exactly as a subscription that never
 * had ordering, so Convoy's clients see no difference.
 */
export function orderingOf(body: OrderingBody, current: SubscriptionDoc['ordering']): OrderingConfig | null {
  const mode = body.ordering ?? current?.mode ?? 'none';
  if (mode === 'none') {
    if (body.ordering_key != null) invalid('ordering_key', 'only applies to ordering "key"');
    return null;
  }
  const unblock_on = body.ordering_unblock_on ?? current?.unblock_on ?? DEFAULT_UNBLOCK;
  if (mode === 'endpoint') {
    if (body.ordering_key != null) invalid('ordering_key', 'only applies to ordering "key"');
    return { mode, key: null, unblock_on };
  }
  const key = body.ordering_key != null ? keyLocation(body.ordering_key) : current?.key;
  if (!key) invalid('ordering_key', 'is required with ordering "key": give body_path or header');
  return { mode, key, unblock_on };
}

function keyLocation(input: OrderingKeyInput): NonNullable<OrderingConfig['key']> {
  if (input.body_path !== undefined && input.header !== undefined)
    invalid('ordering_key', 'takes body_path or header, not both');
  if (input.body_path !== undefined) {
    if (!BODY_PATH.test(input.body_path))
      invalid(
        'ordering_key.body_path',
        'must be a dot path of the event data, e.g. "order_id" or "data.order_id"',
      );
    return { body_path: input.body_path };
  }
  if (input.header !== undefined) {
    if (!HEADER_NAME.test(input.header)) invalid('ordering_key.header', 'must be an HTTP header name');
    return { header: input.header.toLowerCase() };
  }
  invalid('ordering_key', 'needs body_path or header');
}

/** The API's view of the stored setting. */
export function presentOrdering(ordering: SubscriptionDoc['ordering']) {
  return {
    ordering: ordering?.mode ?? ('none' as const),
    ordering_key: ordering?.key ?? null,
    ordering_unblock_on: ordering?.unblock_on ?? DEFAULT_UNBLOCK,
  };
}
