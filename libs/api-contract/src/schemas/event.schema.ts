import { Type, type Static } from '@sinclair/typebox';
import {
  anyJson,
  bool,
  enumOf,
  int,
  mapOf,
  nonEmpty,
  nullable,
  nullableTimestamp,
  object,
  resource,
  scopedFields,
  str,
  strArray,
  timestamp,
} from './common.schema';
import { endpointMetadataResponse, endpointResponse } from './endpoint.schema';
import { sourceResponse } from './source.schema';

export const EVENT_STATUSES = ['Pending', 'Processing', 'Success', 'Failure', 'Retry'] as const;
export const DELIVERY_STATUSES = [
  'Scheduled',
  'Processing',
  'Success',
  'Retry',
  'Failure',
  'Discarded',
] as const;

const common = {
  event_type: nonEmpty(200),
  data: anyJson,
  custom_headers: mapOf(str({ maxLength: 8192 }), { maxProperties: 50 }),
  idempotency_key: nonEmpty(500),
};

/** `endpoint_id` is required; Convoy's deprecated `app_id` is read as it when it is missing. */
export const createEventBody = object(
  {
    endpoint_id: nonEmpty(100),
    app_id: Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'deprecated (Convoy): the endpoint id, when endpoint_id is not set',
    }),
    ...common,
  },
  ['event_type', 'data'],
);
export type CreateEventBody = Static<typeof createEventBody>;
export const fanoutEventBody = object({ owner_id: nonEmpty(200), ...common }, [
  'owner_id',
  'event_type',
  'data',
]);
export type FanoutEventBody = Static<typeof fanoutEventBody>;
export const broadcastEventBody = object(common, ['event_type', 'data']);
export type BroadcastEventBody = Static<typeof broadcastEventBody>;

export const eventAcceptedResponse = resource({
  uid: str(),
  project_id: str(),
  event_type: str(),
  idempotency_key: str(),
  target: object({ mode: enumOf(['single', 'fanout', 'broadcast']), endpoint_id: str(), owner_id: str() }, [
    'mode',
  ]),
  data: anyJson,
  status: enumOf(['Pending']),
  created_at: timestamp,
  validation_errors: Type.Array(resource({ field: str(), message: str() }), {
    description: "what the catalog check found, when the project's event_validation warns (else empty)",
  }),
});

export const eventResponse = resource({
  ...scopedFields,
  app_id: str(),
  source_id: str(),
  event_type: str(),
  idempotency_key: str(),
  url_query_params: str(),
  metadata: str(),
  raw: str(),
  data: anyJson,
  headers: mapOf(strArray(), { description: "each header's values (Convoy's http.Header)" }),
  endpoints: strArray(),
  endpoint_metadata: Type.Array(endpointResponse),
  source_metadata: nullable(sourceResponse),
  is_duplicate_event: bool,
  status: enumOf(EVENT_STATUSES),
  status_reason: nullable(str({ description: 'why the event reached no endpoint, or was not delivered' })),
  acknowledged_at: nullableTimestamp,
  validation_errors: Type.Array(resource({ field: str(), message: str() }), {
    description:
      "what the event type catalog found wrong with the event when the project's event_validation " +
      'warns: each failing path of data (data.amount) and why, or event_type for an unknown type',
  }),
});

/** How much of the body a delivery sent its responses show at most, in UTF-8 bytes. */
export const REQUEST_BODY_CAP = 64 * 1024;

/**
 * The body every attempt of a delivery sent (the subscription function's output, else the event's
 * payload), read from what is stored: in a single delivery only, cut at REQUEST_BODY_CAP bytes.
 */
export const requestBodyFields = {
  request_body: str({
    description: `the body every attempt sent (single delivery only), at most ${REQUEST_BODY_CAP} bytes`,
  }),
  request_body_truncated: bool,
};

export const deliveryResponse = resource(
  {
    ...scopedFields,
    event_id: str(),
    endpoint_id: str(),
    subscription_id: str(),
    source_id: str(),
    event_type: str(),
    status: enumOf(DELIVERY_STATUSES),
    delivery_mode: enumOf(['at_least_once', 'at_most_once']),
    attempts_made: int(),
    retries_used: int(),
    next_attempt_at: nullableTimestamp,
    status_reason: nullable(str()),
    last_http_status: nullable(int()),
    event_metadata: object({ uid: str(), event_type: str() }, ['uid', 'event_type']),
    endpoint_metadata: nullable(endpointMetadataResponse),
    ...requestBodyFields,
  },
  ['request_body', 'request_body_truncated'],
);

const headerMap = mapOf(str());

export const attemptResponse = resource({
  uid: str(),
  msg_id: str({ description: 'the event delivery id' }),
  endpoint_id: str(),
  url: str(),
  method: str(),
  request_http_header: headerMap,
  response_http_header: headerMap,
  http_status: nullable(
    str({ pattern: '^[0-9]{3}$', description: 'as in Convoy, a string; null without a response' }),
  ),
  http_status_code: nullable(int()),
  status: Type.Boolean({ description: 'true for a 2xx response' }),
  response_data: str(),
  error: nullable(str()),
  latency_ms: Type.Number(),
  created_at: timestamp,
});
export type AttemptResponse = Static<typeof attemptResponse>;
