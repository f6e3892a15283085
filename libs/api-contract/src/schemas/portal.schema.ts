import { Type, type Static } from '@sinclair/typebox';
import {
  anyJson,
  anyObject,
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
import {
  circuitBreakerResponse,
  ENDPOINT_STATUSES,
  endpointCreateBody,
  endpointUpdateBody,
  secretResponse,
} from './endpoint.schema';
import { destinationResponse, destinationRules, ENDPOINT_TYPES } from './destination.schema';
import { DELIVERY_STATUSES, EVENT_STATUSES, requestBodyFields } from './event.schema';
import { PORTAL_AUTH_TYPES } from './portal-link.schema';
import { portalBranding } from './project.schema';

/**
 * What a portal link's holder sees: narrower than the management API on purpose (no stored
 * credentials, only the link's endpoints named).
 */
export const portalLinkView = resource({
  uid: str(),
  project_id: str(),
  name: str(),
  owner_id: str(),
  can_manage_endpoint: bool,
  auth_type: enumOf(PORTAL_AUTH_TYPES),
  endpoint_count: int(),
  branding: object(portalBranding.properties, [], {
    description: "the project's portal branding (its config.portal_branding; {} when none)",
  }),
});

export const portalEndpointResponse = resource({
  ...scopedFields,
  owner_id: nullable(str()),
  name: str(),
  description: str(),
  type: enumOf(ENDPOINT_TYPES),
  url: str(),
  destination: nullable(destinationResponse),
  status: enumOf(ENDPOINT_STATUSES),
  status_reason: nullable(str({ description: 'why the endpoint is paused or inactive' })),
  circuit_breaker: circuitBreakerResponse,
  content_type: str(),
  advanced_signatures: bool,
  http_timeout: int(),
  rate_limit: int(),
  rate_limit_duration: int(),
  events: int(),
  failure_rate: Type.Number(),
  support_email: str(),
  event_types: strArray({ description: 'what its subscriptions let through (`*`: all)' }),
  secrets: Type.Array(secretResponse, {
    description: 'the current signing secrets (expired ones sign nothing)',
  }),
});
export type PortalEndpointResponse = Static<typeof portalEndpointResponse>;

/** The management API's endpoint body plus the event types its subscription takes (default all). */
export const portalEndpointCreateBody = Type.Object(
  {
    ...endpointCreateBody.properties,
    event_types: Type.Optional(Type.Array(nonEmpty(200), { minItems: 1, maxItems: 100 })),
  },
  { additionalProperties: false, ...destinationRules(true) },
);
export type PortalEndpointCreateBody = Static<typeof portalEndpointCreateBody>;

/** An edit; `event_types` replaces what the endpoint's subscription lets through. */
export const portalEndpointUpdateBody = Type.Object(
  {
    ...endpointUpdateBody.properties,
    event_types: portalEndpointCreateBody.properties.event_types,
  },
  { additionalProperties: false, ...destinationRules(false) },
);
export type PortalEndpointUpdateBody = Static<typeof portalEndpointUpdateBody>;

export const portalEventResponse = resource({
  ...scopedFields,
  event_type: str(),
  status: enumOf(EVENT_STATUSES),
  status_reason: nullable(str()),
  endpoints: strArray({ description: "the link's endpoints the event was sent to" }),
  data: anyJson,
  raw: str(),
  headers: mapOf(str()),
  acknowledged_at: nullableTimestamp,
});

export const portalAttemptResponse = resource({
  uid: str(),
  url: str(),
  method: str(),
  request_http_header: mapOf(str()),
  response_http_header: mapOf(str()),
  http_status: nullable(int()),
  response_data: str(),
  error: nullable(str()),
  latency_ms: Type.Number(),
  created_at: timestamp,
});
export type PortalAttemptResponse = Static<typeof portalAttemptResponse>;

export const portalDeliveryResponse = resource(
  {
    ...scopedFields,
    event_id: str(),
    endpoint_id: str(),
    event_type: str(),
    status: enumOf(DELIVERY_STATUSES),
    status_reason: nullable(str()),
    attempts_made: int(),
    next_attempt_at: nullableTimestamp,
    last_http_status: nullable(int()),
    last_error: nullable(str({ description: 'why the last attempt failed without a status' })),
    attempts: Type.Array(portalAttemptResponse, { description: 'in a single delivery only' }),
    ...requestBodyFields,
  },
  ['attempts', 'request_body', 'request_body_truncated'],
);
export type PortalDeliveryResponse = Static<typeof portalDeliveryResponse>;

export const portalReplayResponse = resource({
  event_id: str(),
  deliveries: Type.Array(portalDeliveryResponse),
});

export const eventTypeSeenResponse = resource({ event_type: str(), last_seen_at: timestamp });

/** An event type of the project's catalog as an end customer reads it (no ids, none deprecated). */
export const portalCatalogEntry = resource({
  name: str(),
  description: str(),
  category: str(),
  json_schema: nullable(anyObject),
  example: anyJson,
});
