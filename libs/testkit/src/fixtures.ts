import { newId, newProjectId, type ProjectId } from '@hookrail/domain';
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
import { deliveryDoc, endpointDoc, eventDoc, sourceDoc, subscriptionDoc } from './documents';

/** Test arrangements written straight through the store repositories (the API is not needed). */
export async function makeProject(
  store: Store,
  config: Partial<ProjectConfig> = {},
  type: 'incoming' | 'outgoing' = 'incoming',
) {
  const id = newProjectId();
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
  projectId: ProjectId,
  over: Partial<EndpointDoc> & { url: string },
) {
  const now = new Date();
  const secret = {
    uid: newId(),
    value: 'endpoint-secret',
    created_at: now,
    updated_at: now,
    deleted_at: null,
    expires_at: null,
  };
  return store.endpoints.insert(projectId, endpointDoc(projectId, { secrets: [secret], ...over }));
}

export async function makeSource(store: Store, projectId: ProjectId, over: Partial<SourceDoc> = {}) {
  return store.sources.insert(projectId, sourceDoc(projectId, over));
}

export async function makeSubscription(
  store: Store,
  projectId: ProjectId,
  over: Partial<SubscriptionDoc> & { endpoint_id: string },
  filter: { event_types?: string[]; body?: object; headers?: object } = {},
) {
  const filter_config = {
    event_types: filter.event_types ?? ['*'],
    filter: {
      body_json: JSON.stringify(filter.body ?? {}),
      headers_json: JSON.stringify(filter.headers ?? {}),
    },
  };
  return store.subscriptions.insert(projectId, subscriptionDoc(projectId, { filter_config, ...over }));
}

/** A stored event as the router writes it (for tests of the read side and manual operations). */
export async function makeEvent(store: Store, projectId: ProjectId, over: Partial<EventDoc> = {}) {
  return store.events.insert(projectId, eventDoc(projectId, { status: 'Success', ...over }));
}

/** A stored delivery as the router and sender write it. */
export async function makeDelivery(
  store: Store,
  projectId: ProjectId,
  over: Partial<DeliveryDoc> & { event_id: string; endpoint_id: string },
) {
  return store.deliveries.insert(projectId, deliveryDoc(projectId, { subscription_id: newId(), ...over }));
}

export function eventMessage(projectId: ProjectId, over: Partial<EventMessage> = {}): EventMessage {
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
