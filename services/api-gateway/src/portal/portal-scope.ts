import { NotFoundError } from '@hookrail/domain';
import type { EndpointDoc, Store } from '@hookrail/store';
import type { PortalSession } from './portal-auth';

/**
 * The endpoints a link exposes, evaluated at request time:
 * every live endpoint with the link's `owner_id`, plus the deprecated `endpoints` ids that still
 * exist in the project.
 */
export async function linkEndpoints(store: Store, session: PortalSession): Promise<EndpointDoc[]> {
  const { link } = session;
  const [owned, listed] = await Promise.all([
    link.owner_id ? store.endpoints.listByOwner(link.project_id, link.owner_id) : [],
    store.endpoints.findByIds(link.project_id, link.endpoints ?? []),
  ]);
  const byId = new Map<string, EndpointDoc>();
  for (const e of [...owned, ...listed]) byId.set(e._id, e);
  return [...byId.values()].sort((a, b) => (a._id < b._id ? 1 : -1));
}

export async function linkEndpointIds(store: Store, session: PortalSession): Promise<string[]> {
  return (await linkEndpoints(store, session)).map((e) => e._id);
}

/** One of the link's endpoints, or 404 (an endpoint outside the link does not exist for its holder). */
export async function linkEndpoint(store: Store, session: PortalSession, id: string): Promise<EndpointDoc> {
  const endpoint = (await linkEndpoints(store, session)).find((e) => e._id === id);
  if (!endpoint) throw new NotFoundError('endpoint');
  return endpoint;
}

/** Narrows an optional `endpointId` filter to the link's endpoints (404 when outside it). */
export async function scopedEndpointIds(
  store: Store,
  session: PortalSession,
  endpointId: unknown,
): Promise<string[]> {
  const ids = await linkEndpointIds(store, session);
  if (typeof endpointId !== 'string' || endpointId === '') return ids;
  if (!ids.includes(endpointId)) throw new NotFoundError('endpoint');
  return [endpointId];
}
