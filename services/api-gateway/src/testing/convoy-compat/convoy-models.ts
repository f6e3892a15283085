import { map, slice, struct } from './go-decode';

/*
 * Convoy's client models, field by field: the hand-written wrappers of github.com/frain-dev/convoy-go
 * v2 (endpoint.go, source.go, subscription.go, event.go, event_delivery.go, delivery_attempt.go,
 * portal_link.go, project.go) and, where the SDK has no model or the issue names the server's
 * shape, Convoy's own API models. Each descriptor maps a json tag to the Go type behind it.
 */

const Pagination = struct({
  per_page: 'int',
  has_next_page: 'bool',
  has_prev_page: 'bool',
  prev_page_cursor: 'string',
  next_page_cursor: 'string',
});

const Secret = struct({
  uid: 'string',
  value: 'string',
  expires_at: 'time',
  created_at: 'time',
  updated_at: 'time',
  deleted_at: 'time',
});

const EndpointAuth = struct({
  type: 'string',
  api_key: struct({ header_value: 'string', header_name: 'string' }),
});

export const EndpointResponse = struct({
  uid: 'string',
  group_id: 'string',
  owner_id: 'string',
  target_url: 'string',
  url: 'string',
  title: 'string',
  description: 'string',
  status: 'string',
  secrets: slice(Secret),
  advanced_signatures: 'bool',
  slack_webhook_url: 'string',
  support_email: 'string',
  is_disabled: 'bool',
  // convoy-go's customString: a string or an integer
  http_timeout: 'intOrString',
  rate_limit: 'intOrString',
  rate_limit_duration: 'intOrString',
  authentication: EndpointAuth,
  events: 'int',
  created_at: 'time',
  updated_at: 'time',
});

const VerifierConfig = struct({
  type: 'string',
  hmac: struct({ header: 'string', hash: 'string', secret: 'string', encoding: 'string' }),
  basic_auth: struct({ username: 'string', password: 'string' }),
  api_key: struct({ header_value: 'string', header_name: 'string' }),
});

export const SourceResponse = struct({
  uid: 'string',
  group_id: 'string',
  mask_id: 'string',
  name: 'string',
  type: 'string',
  provider: 'string',
  is_disabled: 'bool',
  verifier: VerifierConfig,
  provider_config: struct({ twitter: struct({ crc_verified_at: 'time' }) }),
  forward_headers: slice('string'),
  created_at: 'time',
  updated_at: 'time',
});

export const SubscriptionResponse = struct({
  uid: 'string',
  name: 'string',
  type: 'string',
  status: 'string',
  source_metadata: SourceResponse,
  endpoint_metadata: EndpointResponse,
  alert_config: struct({ count: 'int', threshold: 'string' }),
  // Convoy's server sends the retry duration in seconds (datastore.RetryConfiguration, uint64);
  // the SDK wrapper's `string` would fail on Convoy's own answers, so the server's type is mirrored.
  retry_config: struct({ type: 'string', duration: 'uint', retry_count: 'uint' }),
  filter_config: struct({
    event_types: slice('string'),
    filter: struct({ body: map('raw'), headers: map('raw') }),
  }),
  created_at: 'time',
  updated_at: 'time',
});

export const PortalLinkResponse = struct({
  uid: 'string',
  name: 'string',
  project_id: 'string',
  owner_id: 'string',
  endpoints: slice('string'),
  endpoint_count: 'int',
  can_manage_endpoint: 'bool',
  token: 'string',
  endpoints_metadata: slice(EndpointResponse),
  url: 'string',
});

/** The SDK's EventResponse plus the server's fields a generated client reads (headers as lists). */
export const EventResponse = struct({
  uid: 'string',
  event_type: 'string',
  matched_endpoints: 'int',
  provider_id: 'string',
  data: 'raw',
  endpoint_metadata: slice(EndpointResponse),
  source_metadata: SourceResponse,
  endpoints: slice('string'),
  headers: map(slice('string')),
  idempotency_key: 'string',
  is_duplicate_event: 'bool',
  raw: 'string',
  status: 'string',
  created_at: 'time',
  updated_at: 'time',
});

export const EventDeliveryResponse = struct({
  uid: 'string',
  // the SDK reads `name`; the server's EventMetadata carries `event_type`
  event_metadata: struct({ uid: 'string', name: 'string', event_type: 'string' }),
  endpoint_metadata: EndpointResponse,
  metadata: struct({
    data: 'raw',
    strategy: 'string',
    next_send_time: 'time',
    num_trials: 'uint',
    interval_seconds: 'uint',
    retry_limit: 'uint',
  }),
  description: 'string',
  status: 'string',
  event_id: 'string',
  endpoint_id: 'string',
  subscription_id: 'string',
  created_at: 'time',
  updated_at: 'time',
});

export const DeliveryAttemptResponse = struct({
  uid: 'string',
  msg_id: 'string',
  url: 'string',
  method: 'string',
  endpoint_id: 'string',
  api_version: 'string',
  ip_address: 'string',
  request_http_header: map('string'),
  response_http_header: map('string'),
  http_status: 'string',
  response_data: 'string',
  error: 'string',
  status: 'bool',
  created_at: 'time',
  updated_at: 'time',
  deleted_at: 'time',
});

export const ProjectResponse = struct({
  uid: 'string',
  name: 'string',
  logo_url: 'string',
  organisation_id: 'string',
  type: 'string',
  config: struct({
    ratelimit: struct({ count: 'int', duration: 'uint' }),
    strategy: struct({ type: 'string', duration: 'uint', retry_count: 'uint' }),
    signature: struct({ header: 'string', hash: 'string' }),
    retention_policy: struct({ policy: 'string' }),
    disable_endpoint: 'bool',
    replay_attacks: 'bool',
    is_retention_policy_enabled: 'bool',
  }),
  statistics: struct({ messages_sent: 'int', total_apps: 'int' }),
  rate_limit: 'int',
  rate_limit_duration: 'string',
  metadata: struct({ retained_events: 'int' }),
  created_at: 'time',
  updated_at: 'time',
});

/** Convoy's meta event (no SDK model): attempt headers are folded into one string each here. */
export const MetaEventResponse = struct({
  uid: 'string',
  project_id: 'string',
  event_type: 'string',
  status: 'string',
  metadata: struct({
    raw: 'string',
    strategy: 'string',
    next_send_time: 'time',
    num_trials: 'uint',
    interval_seconds: 'uint',
    retry_limit: 'uint',
  }),
  created_at: 'time',
  updated_at: 'time',
});

export const listOf = <T extends ReturnType<typeof struct>>(item: T) =>
  struct({ content: slice(item), pagination: Pagination });
