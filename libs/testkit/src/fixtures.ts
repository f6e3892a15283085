import { newId } from '@hookrail/domain';
import type { EventMessage } from '@hookrail/bus';
import {
  DEFAULT_PROJECT_CONFIG,
  type DeliveryDoc,
  type EndpointDoc,
  type EventDoc,
  type ProjectConfig,
  type SourceDoc,
  type Store,
  type SubscriptionDoc,
} from '@hookrail/store';

/** Test arrangements written straight through the store repositories (the API is not needed). */
export async function makeProject(
  store: Store,
  config: Partial<ProjectConfig> = {},
  type: 'incoming' | 'outgoing' = 'incoming',
) {
  const id = newId();
  await store.projects.insert({
    _id: id,
    name: `p-${id}`,
    type,
    config: { ...DEFAULT_PROJECT_CONFIG, ...config },
  });
  return id;
}

export async function makeEndpoint(
  store: Store,
  projectId: string,
  over: Partial<EndpointDoc> & { url: string },
) {
  const id = newId();
  const now = new Date();
  return store.endpoints.insert(projectId, {
    _id: id,
    owner_id: null,
    name: `ep-${id}`,
    description: '',
    content_type: 'application/json',
    status: 'active',
    advanced_signatures: false,
    http_timeout: 10,
    rate_limit: 0,
    rate_limit_duration: 0,
    events: 0,
    failure_rate: 0,
    support_email: null,
    slack_webhook_url: null,
    mtls_client_cert: null,
    secrets: [
      {
        uid: newId(),
        value: 'endpoint-secret',
        created_at: now,
        updated_at: now,
        deleted_at: null,
        expires_at: null,
      },
    ],
    authentication: null,
    ...over,
  });
}

export async function makeSource(store: Store, projectId: string, over: Partial<SourceDoc> = {}) {
  const id = newId();
  return store.sources.insert(projectId, {
    _id: id,
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
    ...over,
  });
}

export async function makeSubscription(
  store: Store,
  projectId: string,
  over: Partial<SubscriptionDoc> & { endpoint_id: string },
  filter: { event_types?: string[]; body?: object; headers?: object } = {},
) {
  const id = newId();
  return store.subscriptions.insert(projectId, {
    _id: id,
    name: `sub-${id}`,
    type: 'api',
    source_id: null,
    app_id: null,
    delivery_mode: 'at_least_once',
    function: null,
    alert_config: null,
    rate_limit_config: null,
    retry_config: null,
    filter_config: {
      event_types: filter.event_types ?? ['*'],
      filter: {
        body_json: JSON.stringify(filter.body ?? {}),
        headers_json: JSON.stringify(filter.headers ?? {}),
      },
    },
    ...over,
  });
}

/** A stored event as the router writes it (for tests of the read side and manual operations). */
export async function makeEvent(store: Store, projectId: string, over: Partial<EventDoc> = {}) {
  return store.events.insert(projectId, {
    _id: newId(),
    source_id: null,
    app_id: null,
    event_type: 'invoice.paid',
    idempotency_key: null,
    is_duplicate_event: false,
    status: 'Success',
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
    ...over,
  });
}

/** A stored delivery as the router and sender write it. */
export async function makeDelivery(
  store: Store,
  projectId: string,
  over: Partial<DeliveryDoc> & { event_id: string; endpoint_id: string },
) {
  return store.deliveries.insert(projectId, {
    _id: newId(),
    subscription_id: newId(),
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
    ...over,
  });
}

export function eventMessage(projectId: string, over: Partial<EventMessage> = {}): EventMessage {
  const data = (over.data ?? { amount: 42, customer: { tier: 'gold' } }) as object;
  return {
    event_id: newId(),
    project_id: projectId,
    event_type: 'invoice.paid',
    target: { mode: 'source' },
    data,
    raw: JSON.stringify(data),
    headers: { 'content-type': 'application/json' },
    accepted_at: new Date().toISOString(),
    ...over,
  };
}
