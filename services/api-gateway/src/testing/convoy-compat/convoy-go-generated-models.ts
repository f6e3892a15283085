import { map, slice, struct } from './go-decode';

/*
 * The response models of convoy-go's generated client (`client/client.gen.go`, oapi-codegen from
 * Convoy's OpenAPI document), field by field: every field is a pointer with `omitempty`, so an
 * absent field or `null` is nil; a value of another JSON type fails the decode. Times are strings
 * there (`*string`), maps of `interface{}` take any JSON, `[]byte` takes base64 text or an array.
 */

const raw = map('raw');

const GenSecret = struct({
  created_at: 'string',
  deleted_at: 'string',
  expires_at: 'string',
  uid: 'string',
  updated_at: 'string',
  value: 'string',
});

const GenOAuth2 = struct({
  audience: 'string',
  authentication_type: 'string',
  client_id: 'string',
  client_secret: 'string',
  expiry_time_unit: 'string',
  field_mapping: struct({ access_token: 'string', expires_in: 'string', token_type: 'string' }),
  grant_type: 'string',
  issuer: 'string',
  scope: 'string',
  signing_algorithm: 'string',
  signing_key: struct({
    crv: 'string',
    d: 'string',
    dp: 'string',
    dq: 'string',
    e: 'string',
    kid: 'string',
    kty: 'string',
    n: 'string',
    p: 'string',
    q: 'string',
    qi: 'string',
    x: 'string',
    y: 'string',
  }),
  subject: 'string',
  url: 'string',
});

/** DatastoreEndpoint, also ModelsEndpointResponse. */
export const GenEndpoint = struct({
  advanced_signatures: 'bool',
  authentication: struct({
    api_key: struct({ header_name: 'string', header_value: 'string' }),
    basic_auth: struct({ password: 'string', username: 'string' }),
    oauth2: GenOAuth2,
    type: 'string',
  }),
  cb_state: 'string',
  content_type: 'string',
  created_at: 'string',
  deleted_at: 'string',
  description: 'string',
  events: 'int',
  failure_count: 'int',
  failure_rate: 'float',
  http_timeout: 'int',
  mtls_client_cert: struct({ client_cert: 'string', client_key: 'string' }),
  name: 'string',
  owner_id: 'string',
  period_failure_rate: 'float',
  project_id: 'string',
  rate_limit: 'int',
  rate_limit_duration: 'int',
  retry_count: 'int',
  secrets: slice(GenSecret),
  slack_webhook_url: 'string',
  status: 'string',
  success_count: 'int',
  support_email: 'string',
  teams_webhook_url: 'string',
  uid: 'string',
  updated_at: 'string',
  url: 'string',
});

const GenPubSub = struct({
  amqp: struct({
    auth: struct({ password: 'string', user: 'string' }),
    bindedExchange: 'string',
    deadLetterExchange: 'string',
    host: 'string',
    port: 'string',
    queue: 'string',
    routingKey: 'string',
    schema: 'string',
    vhost: 'string',
  }),
  google: struct({ project_id: 'string', service_account: 'bytes', subscription_id: 'string' }),
  kafka: struct({
    auth: struct({ hash: 'string', password: 'string', tls: 'bool', type: 'string', username: 'string' }),
    brokers: slice('string'),
    consumer_group_id: 'string',
    topic_name: 'string',
  }),
  sqs: struct({
    access_key_id: 'string',
    default_region: 'string',
    endpoint: 'string',
    queue_name: 'string',
    secret_key: 'string',
  }),
  type: 'string',
  workers: 'int',
});

/** DatastoreSource, also ModelsSourceResponse. */
export const GenSource = struct({
  body_function: 'string',
  created_at: 'string',
  custom_response: struct({ body: 'string', content_type: 'string' }),
  deleted_at: 'string',
  event_type_location: 'string',
  forward_headers: slice('string'),
  header_function: 'string',
  idempotency_keys: slice('string'),
  is_disabled: 'bool',
  mask_id: 'string',
  name: 'string',
  project_id: 'string',
  provider: 'string',
  provider_config: struct({ twitter: struct({ crc_verified_at: 'string' }) }),
  pub_sub: GenPubSub,
  type: 'string',
  uid: 'string',
  updated_at: 'string',
  url: 'string',
  verifier: struct({
    api_key: struct({ header_name: 'string', header_value: 'string' }),
    basic_auth: struct({ password: 'string', username: 'string' }),
    hmac: struct({ encoding: 'string', hash: 'string', header: 'string', secret: 'string' }),
    type: 'string',
  }),
});

const GenDevice = struct({
  created_at: 'string',
  deleted_at: 'string',
  endpoint_id: 'string',
  host_name: 'string',
  last_seen_at: 'string',
  project_id: 'string',
  status: 'string',
  uid: 'string',
  updated_at: 'string',
});

export const GenSubscription = struct({
  alert_config: struct({ count: 'int', threshold: 'string' }),
  created_at: 'string',
  deleted_at: 'string',
  delivery_mode: 'string',
  device_metadata: GenDevice,
  endpoint_metadata: GenEndpoint,
  filter_config: struct({
    event_types: slice('string'),
    filter: struct({ body: raw, headers: raw, is_flattened: 'bool', path: raw, query: raw }),
  }),
  function: 'string',
  name: 'string',
  project_id: 'string',
  rate_limit_config: struct({ count: 'int', duration: 'int' }),
  retry_config: struct({ duration: 'int', retry_count: 'int', type: 'string' }),
  source_metadata: GenSource,
  type: 'string',
  uid: 'string',
  updated_at: 'string',
});

/** httpheader.HTTPHeader */
const GenHttpHeader = map(slice('string'));

/** DatastoreEvent, also ModelsEventResponse. */
export const GenEvent = struct({
  acknowledged_at: 'string',
  app_id: 'string',
  created_at: 'string',
  data: raw,
  deleted_at: 'string',
  endpoint_metadata: slice(GenEndpoint),
  endpoints: slice('string'),
  event_type: 'string',
  failure_reason: 'string',
  headers: GenHttpHeader,
  idempotency_key: 'string',
  is_duplicate_event: 'bool',
  project_id: 'string',
  raw: 'string',
  source_id: 'string',
  source_metadata: GenSource,
  status: 'string',
  uid: 'string',
  updated_at: 'string',
  url_path: 'string',
  url_query_params: 'string',
});

const GenMetadata = struct({
  data: raw,
  interval_seconds: 'int',
  max_retry_seconds: 'int',
  next_send_time: 'string',
  num_trials: 'int',
  raw: 'string',
  retry_limit: 'int',
  strategy: 'string',
});

export const GenEventDelivery = struct({
  acknowledged_at: 'string',
  cli_metadata: struct({ event_type: 'string', source_id: 'string' }),
  created_at: 'string',
  deleted_at: 'string',
  delivery_mode: 'string',
  description: 'string',
  device_id: 'string',
  device_metadata: GenDevice,
  endpoint_id: 'string',
  endpoint_metadata: GenEndpoint,
  event_id: 'string',
  event_metadata: GenEvent,
  event_type: 'string',
  headers: GenHttpHeader,
  idempotency_key: 'string',
  latency: 'string',
  latency_seconds: 'float',
  metadata: GenMetadata,
  project_id: 'string',
  source_metadata: GenSource,
  status: 'string',
  subscription_id: 'string',
  target_url: 'string',
  uid: 'string',
  updated_at: 'string',
  url_query_params: 'string',
});

export const GenDeliveryAttempt = struct({
  api_version: 'string',
  created_at: 'string',
  deleted_at: 'string',
  endpoint_id: 'string',
  error: 'string',
  http_status: 'string',
  ip_address: 'string',
  method: 'string',
  msg_id: 'string',
  project_id: 'string',
  request_http_header: map('string'),
  requested_at: 'string',
  responded_at: 'string',
  response_data: 'string',
  response_http_header: map('string'),
  status: 'bool',
  uid: 'string',
  updated_at: 'string',
  url: 'string',
});

export const GenPortalLink = struct({
  auth_key: 'string',
  auth_type: 'string',
  can_manage_endpoint: 'bool',
  created_at: 'string',
  deleted_at: 'string',
  endpoint_count: 'int',
  endpoints: slice('string'),
  endpoints_metadata: slice(GenEndpoint),
  name: 'string',
  owner_id: 'string',
  project_id: 'string',
  token: 'string',
  uid: 'string',
  updated_at: 'string',
  url: 'string',
});

export const GenProject = struct({
  config: struct({
    add_event_id_trace_headers: 'bool',
    allow_unmatched_dynamic_urls: 'bool',
    circuit_breaker: struct({
      consecutive_failure_threshold: 'int',
      error_timeout: 'int',
      failure_threshold: 'int',
      minimum_request_count: 'int',
      observability_window: 'int',
      sample_rate: 'int',
      success_threshold: 'int',
    }),
    disable_endpoint: 'bool',
    max_payload_read_size: 'int',
    meta_event: struct({
      event_type: slice('string'),
      is_enabled: 'bool',
      pub_sub: GenPubSub,
      secret: 'string',
      type: 'string',
      url: 'string',
    }),
    multiple_endpoint_subscriptions: 'bool',
    ratelimit: struct({ count: 'int', duration: 'int' }),
    replay_attacks_prevention_enabled: 'bool',
    request_id_header: 'string',
    search_policy: 'string',
    signature: struct({
      header: 'string',
      versions: slice(struct({ created_at: 'string', encoding: 'string', hash: 'string', uid: 'string' })),
    }),
    ssl: struct({ enforce_secure_endpoints: 'bool' }),
    strategy: struct({ duration: 'int', retry_count: 'int', type: 'string' }),
    verify_dynamic_events: 'bool',
  }),
  created_at: 'string',
  deleted_at: 'string',
  logo_url: 'string',
  name: 'string',
  organisation_id: 'string',
  retained_events: 'int',
  statistics: struct({
    endpoints_exist: 'bool',
    events_exist: 'bool',
    sources_exist: 'bool',
    subscriptions_exist: 'bool',
  }),
  type: 'string',
  uid: 'string',
  updated_at: 'string',
});

export const GenMetaEvent = struct({
  attempt: struct({
    request_http_header: map('string'),
    response_data: 'string',
    response_http_header: map('string'),
  }),
  created_at: 'string',
  deleted_at: 'string',
  event_type: 'string',
  metadata: GenMetadata,
  project_id: 'string',
  status: 'string',
  uid: 'string',
  updated_at: 'string',
});

/** `models.EventTypeResponse`: `json_schema` is a `map[string]interface{}` there. */
export const GenEventType = struct({
  category: 'string',
  deprecated_at: 'string',
  description: 'string',
  json_schema: map('raw'),
  name: 'string',
  uid: 'string',
});

/** A list answer: models.PagedResponse with datastore.PaginationData. */
export const genPage = <T extends ReturnType<typeof struct>>(item: T) =>
  struct({
    content: slice(item),
    pagination: struct({
      has_next_page: 'bool',
      has_prev_page: 'bool',
      next_page_cursor: 'string',
      per_page: 'int',
      prev_page_cursor: 'string',
      total: 'int',
    }),
  });

/** `models.CreateProjectResponse`: the key as `datastore.APIKeyResponse`, its role an object. */
export const GenCreateProjectResponse = struct({
  api_key: struct({
    created_at: 'string',
    expires_at: 'string',
    key: 'string',
    key_type: 'string',
    name: 'string',
    role: struct({ app: 'string', project: 'string', type: 'string' }),
    uid: 'string',
    user_id: 'string',
  }),
  project: GenProject,
});
