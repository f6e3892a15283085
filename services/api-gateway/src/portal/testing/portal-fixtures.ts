import { hashSecret, newId, randomToken, type ProjectId } from '@hookrail/domain';
import type { DeliveryDoc, Store } from '@hookrail/store';
import { makeDelivery, makeEndpoint, makeEvent } from '@hookrail/testkit';

/** Test data for the portal's tests, written straight into the real store. */
export interface LinkOptions {
  owner_id?: string | null;
  endpoints?: string[];
  can_manage_endpoint?: boolean;
  refresh?: boolean;
}

export async function seedEndpoint(
  store: Store,
  projectId: ProjectId,
  owner: string | null,
  name = `ep-${newId()}`,
  url = 'https://example.com/hook',
) {
  return makeEndpoint(store, projectId, { owner_id: owner, name, url, secrets: [] });
}

export async function seedLink(store: Store, projectId: ProjectId, opts: LinkOptions = {}) {
  const token = randomToken(32);
  const authKey = randomToken(32);
  const doc = await store.portalLinks.insert(projectId, {
    _id: newId(),
    name: 'Acme portal',
    owner_id: opts.owner_id ?? null,
    endpoints: opts.endpoints ?? [],
    can_manage_endpoint: opts.can_manage_endpoint ?? false,
    auth_type: opts.refresh ? 'refresh_token' : 'static_token',
    token,
    token_hash: hashSecret(token),
    auth_key_hash: opts.refresh ? hashSecret(authKey) : null,
    auth_key_expires_at: opts.refresh ? new Date(Date.now() + 3600_000) : null,
  });
  return { doc, token, authKey };
}

export async function seedDelivery(
  store: Store,
  projectId: ProjectId,
  endpointId: string,
  status: DeliveryDoc['status'],
) {
  const { _id: eventId } = await makeEvent(store, projectId, {
    status: status === 'Success' ? 'Success' : 'Failure',
    endpoints: [endpointId],
    target: { mode: 'single', endpoint_id: endpointId },
    acknowledged_at: new Date(),
  });
  const delivery = await makeDelivery(store, projectId, {
    event_id: eventId,
    endpoint_id: endpointId,
    status,
    attempts_made: 1,
    attempts: [
      {
        uid: newId(),
        url: 'https://example.com/hook',
        method: 'POST',
        request_headers_json: '{"content-type":"application/json"}',
        response_headers_json: '{"x-r":"1"}',
        http_status: status === 'Success' ? 200 : 500,
        response_data: status === 'Success' ? 'ok' : 'boom',
        error: null,
        latency_ms: 12,
        created_at: new Date(),
      },
    ],
  });
  return { eventId, delivery };
}
