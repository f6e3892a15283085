import { newId, type ProjectId } from '@hookrail/domain';
import type {
  DeliveryAttempt,
  DeliveryDoc,
  EndpointDoc,
  EventDoc,
  MetaEventDoc,
  PortalLinkDoc,
  SourceDoc,
  SubscriptionDoc,
} from '@hookrail/store';

/** Complete documents as the services write them (the store contract suite, fixtures, benchmarks). */

const stamps = (at = new Date()) => ({ created_at: at, updated_at: at, deleted_at: null });

export function eventDoc(projectId: ProjectId, over: Partial<EventDoc> = {}): EventDoc {
  return {
    _id: newId(),
    project_id: projectId,
    source_id: null,
    app_id: null,
    event_type: 'invoice.paid',
    idempotency_key: null,
    is_duplicate_event: false,
    status: 'Pending',
    status_reason: null,
    raw: '{"amount":42}',
    headers_json: '{}',
    forward_headers_json: '{}',
    url_query_params: '',
    metadata: '',
    endpoints: [],
    delivery_count: 0,
    target: { mode: 'broadcast' },
    acknowledged_at: null,
    ...stamps(),
    ...over,
  };
}

export function deliveryDoc(
  projectId: ProjectId,
  over: Partial<DeliveryDoc> & { event_id: string; endpoint_id: string },
): DeliveryDoc {
  return {
    _id: newId(),
    project_id: projectId,
    subscription_id: 'sub-1',
    source_id: null,
    event_type: 'invoice.paid',
    status: 'Scheduled',
    delivery_mode: 'at_least_once',
    payload: null,
    attempts_made: 0,
    retries_used: 0,
    next_attempt_at: null,
    status_reason: null,
    attempts: [],
    metadata: {},
    ...stamps(),
    ...over,
  };
}

export function endpointDoc(projectId: ProjectId, over: Partial<EndpointDoc> = {}): EndpointDoc {
  const id = newId();
  return {
    _id: id,
    project_id: projectId,
    owner_id: null,
    name: `ep-${id}`,
    description: '',
    type: 'http',
    url: 'https://example.com/hooks',
    destination: null,
    content_type: 'application/json',
    status: 'active',
    status_reason: null,
    circuit_breaker: null,
    advanced_signatures: false,
    http_timeout: 10,
    rate_limit: 0,
    rate_limit_duration: 0,
    events: 0,
    failure_rate: 0,
    support_email: null,
    slack_webhook_url: null,
    mtls_client_cert: null,
    secrets: [],
    authentication: null,
    ...stamps(),
    ...over,
  };
}

export function sourceDoc(projectId: ProjectId, over: Partial<SourceDoc> = {}): SourceDoc {
  const id = newId();
  return {
    _id: id,
    project_id: projectId,
    name: `src-${id}`,
    type: 'http',
    provider: null,
    provider_config: null,
    mask_id: newId().toLowerCase(),
    is_disabled: false,
    forward_headers: [],
    idempotency_keys: [],
    body_function: null,
    header_function: null,
    custom_response: null,
    pub_sub: null,
    verifier: null,
    ...stamps(),
    ...over,
  };
}

export function subscriptionDoc(
  projectId: ProjectId,
  over: Partial<SubscriptionDoc> & { endpoint_id: string },
): SubscriptionDoc {
  const id = newId();
  return {
    _id: id,
    project_id: projectId,
    name: `sub-${id}`,
    type: 'api',
    source_id: null,
    app_id: null,
    delivery_mode: 'at_least_once',
    function: null,
    alert_config: null,
    rate_limit_config: null,
    filter_config: { event_types: ['*'], filter: { body_json: '{}', headers_json: '{}' } },
    retry_config: null,
    ordering: null,
    ...stamps(),
    ...over,
  };
}

export function portalLinkDoc(projectId: ProjectId, over: Partial<PortalLinkDoc> = {}): PortalLinkDoc {
  const id = newId();
  return {
    _id: id,
    project_id: projectId,
    name: `link-${id}`,
    owner_id: null,
    endpoints: [],
    can_manage_endpoint: false,
    auth_type: 'static_token',
    token: `sealed-${id}`,
    token_hash: `hash-${id}`,
    auth_key_hash: null,
    auth_key_expires_at: null,
    ...stamps(),
    ...over,
  };
}

export function metaEventDoc(projectId: ProjectId, over: Partial<MetaEventDoc> = {}): MetaEventDoc {
  return {
    _id: newId(),
    project_id: projectId,
    event_type: 'endpoint.created',
    status: 'Scheduled',
    attempt: null,
    metadata: {
      raw: '{}',
      strategy: 'linear',
      interval_seconds: 10,
      max_retry_seconds: 0,
      num_trials: 0,
      retry_limit: 3,
      next_send_time: null,
    },
    ...stamps(),
    ...over,
  };
}

export function attempt(uid: string, over: Partial<DeliveryAttempt> = {}): DeliveryAttempt {
  return {
    uid,
    url: 'https://example.com/hooks',
    method: 'POST',
    request_headers_json: '{}',
    response_headers_json: '{}',
    http_status: 200,
    response_data: '',
    error: null,
    latency_ms: 12,
    created_at: new Date(),
    ...over,
  };
}
