import { Type, type Static } from '@sinclair/typebox';
import {
  anyJson,
  anyObject,
  bool,
  clearList,
  enumOf,
  int,
  nonEmpty,
  nullable,
  object,
  resource,
  responseOnly,
  responseOnlyFields,
  scopedFields,
  str,
  strArray,
} from './common.schema';
import { endpointResponse } from './endpoint.schema';
import { sourceResponse } from './source.schema';

export const DELIVERY_MODES = ['at_least_once', 'at_most_once'] as const;
export const RETRY_TYPES = ['linear', 'exponential'] as const;

const fn = nullable(str({ maxLength: 64 * 1024 }));

const filterConfigInput = object({
  event_types: Type.Array(nonEmpty(200), { maxItems: 100 }),
  filter: object({ body: anyObject, headers: anyObject, is_flattened: responseOnly }),
});

/** The update shape: duration as a string like "30s", or interval_seconds. */
const retryConfigInput = object({
  type: enumOf(RETRY_TYPES),
  // one `type` (not anyOf) so ajv reports one error naming the field
  duration: Type.Unsafe<string | number>({
    type: ['string', 'integer'],
    description: 'seconds, or "30s", "5m", "1h"',
  }),
  interval_seconds: int({ minimum: 1, maximum: 86400 }),
  retry_count: int({ minimum: 0, maximum: 100 }),
});
export type RetryConfigInput = Static<typeof retryConfigInput>;

/** Ordered delivery (docs/ordered-delivery.md): none (as before), every delivery of the endpoint, per key. */
export const ORDERING_MODES = ['none', 'endpoint', 'key'] as const;
/** Ends of a key's head that unblock the key besides success (an operator's skip always does). */
export const ORDERING_UNBLOCKS = ['failure', 'discarded'] as const;

/** Where `ordering: key` reads the key: a dot path of the event's data, or a request header. */
const orderingKeyInput = object({
  body_path: str({ minLength: 1, maxLength: 200, description: 'e.g. "order_id" or "customer.id"' }),
  header: str({ minLength: 1, maxLength: 200, description: 'a request header, e.g. "X-Order-Id"' }),
});
const orderingFields = {
  ordering: enumOf(ORDERING_MODES),
  ordering_key: nullable(orderingKeyInput),
  ordering_unblock_on: Type.Array(enumOf(ORDERING_UNBLOCKS), { maxItems: 2, uniqueItems: true }),
};
export type OrderingKeyInput = Static<typeof orderingKeyInput>;

/** Convoy's subscription kinds: `cli` marks one made for Convoy's CLI; both deliver alike here. */
export const SUBSCRIPTION_TYPES = ['api', 'cli'] as const;

const subscriptionInputFields = {
  name: nonEmpty(200),
  type: enumOf(SUBSCRIPTION_TYPES),
  source_id: nullable(str({ minLength: 1, maxLength: 100 })),
  endpoint_id: nonEmpty(100),
  app_id: nullable(str({ minLength: 1, maxLength: 100, description: 'deprecated' })),
  delivery_mode: enumOf(DELIVERY_MODES),
  function: fn,
  alert_config: nullable(
    object({ count: int({ minimum: 1 }), threshold: nonEmpty(20) }, ['count', 'threshold']),
  ),
  rate_limit_config: nullable(
    object({ count: int({ minimum: 1 }), duration: int({ minimum: 1, description: 'seconds' }) }, [
      'count',
      'duration',
    ]),
  ),
  filter_config: filterConfigInput,
  retry_config: nullable(retryConfigInput),
  ...orderingFields,
  ...responseOnlyFields([
    'uid',
    'project_id',
    'source_metadata',
    'endpoint_metadata',
    'device_metadata',
    'created_at',
    'updated_at',
    'deleted_at',
  ]),
};

export const subscriptionCreateBody = object(subscriptionInputFields, ['name', 'endpoint_id']);
export type SubscriptionCreateBody = Static<typeof subscriptionCreateBody>;
/** The optional settings an update can empty: no source, no function, the project's retry strategy, no limit, no alert. */
export const CLEARABLE_SUBSCRIPTION_FIELDS = [
  'source_id',
  'function',
  'retry_config',
  'rate_limit_config',
  'alert_config',
  'ordering',
] as const;

export const subscriptionUpdateBody = object({
  ...subscriptionInputFields,
  clear: clearList(CLEARABLE_SUBSCRIPTION_FIELDS),
});
export type SubscriptionUpdateBody = Static<typeof subscriptionUpdateBody>;

export const subscriptionResponse = resource({
  ...scopedFields,
  name: str(),
  type: enumOf(SUBSCRIPTION_TYPES),
  app_id: nullable(str()),
  delivery_mode: enumOf(DELIVERY_MODES),
  function: nullable(str()),
  alert_config: nullable(object({ count: int(), threshold: str() }, ['count', 'threshold'])),
  rate_limit_config: nullable(object({ count: int(), duration: int() }, ['count', 'duration'])),
  filter_config: object(
    {
      event_types: strArray(),
      filter: object({ body: anyObject, headers: anyObject, is_flattened: bool }, [
        'body',
        'headers',
        'is_flattened',
      ]),
    },
    ['event_types', 'filter'],
  ),
  retry_config: nullable(
    object({ type: enumOf(RETRY_TYPES), duration: int(), retry_count: int(), max_retry_seconds: int() }, [
      'type',
      'duration',
      'retry_count',
    ]),
  ),
  ...orderingFields,
  source_metadata: nullable(sourceResponse),
  endpoint_metadata: nullable(endpointResponse),
  device_metadata: Type.Null(),
});

export const testFilterBody = object(
  {
    request: object({ body: anyJson, headers: anyObject }),
    schema: object({ body: anyObject, headers: anyObject }),
  },
  ['request', 'schema'],
);
export type TestFilterBody = Static<typeof testFilterBody>;
export const testFilterResponse = resource({ is_match: bool });

export const testFunctionBody = object({ payload: anyJson, function: nonEmpty(64 * 1024) }, [
  'payload',
  'function',
]);
export type TestFunctionBody = Static<typeof testFunctionBody>;
export const testFunctionResponse = resource({ payload: anyJson }, []);
