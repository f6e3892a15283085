import {
  NotFoundError,
  ValidationError,
  hashSecret,
  newId,
  randomToken,
  type ProjectId,
} from '@hookrail/domain';
import type { EndpointDoc, PortalLinkDoc } from '@hookrail/store';
import type { GatewayDeps } from '../deps';
import type { PortalLinkCreateBody, PortalLinkUpdateBody } from '@hookrail/api-contract';

/** Lifetime of a refresh_token link's auth key. */
const AUTH_KEY_TTL_SECONDS = 3600;

/** The link's endpoints: every endpoint with its owner id, looked up now, plus the deprecated ids. */
export async function linkEndpoints(deps: GatewayDeps, link: PortalLinkDoc): Promise<EndpointDoc[]> {
  const [owned, listed] = await Promise.all([
    link.owner_id ? deps.store.endpoints.listByOwner(link.project_id, link.owner_id) : [],
    deps.store.endpoints.findByIds(link.project_id, link.endpoints ?? []),
  ]);
  const byId = new Map([...owned, ...listed].map((e) => [e._id, e]));
  return [...byId.values()].sort((a, b) => (a._id < b._id ? -1 : 1));
}

async function checkTargets(
  deps: GatewayDeps,
  projectId: ProjectId,
  ownerId: string | null,
  endpoints: string[],
) {
  if (!ownerId && endpoints.length === 0)
    throw new ValidationError('a portal link needs owner_id or endpoints', [
      { field: 'owner_id', message: 'is required unless endpoints lists endpoint ids' },
    ]);
  const found = new Set((await deps.store.endpoints.findByIds(projectId, endpoints)).map((e) => e._id));
  const errors = endpoints
    .map((id, i) => ({ id, i }))
    .filter(({ id }) => !found.has(id))
    .map(({ i }) => ({ field: `endpoints.${i}`, message: 'no such endpoint in this project' }));
  if (errors.length > 0) throw new ValidationError(`${errors[0].field}: ${errors[0].message}`, errors);
}

function newAuthKey(deps: GatewayDeps) {
  const key = randomToken(32);
  return {
    key,
    set: {
      auth_key_hash: hashSecret(key),
      auth_key_expires_at: new Date(deps.now().getTime() + AUTH_KEY_TTL_SECONDS * 1000),
    },
  };
}

export async function createPortalLink(deps: GatewayDeps, projectId: ProjectId, body: PortalLinkCreateBody) {
  const ownerId = body.owner_id ?? null;
  const endpoints = body.endpoints ?? [];
  await checkTargets(deps, projectId, ownerId, endpoints);
  const token = randomToken(32);
  const authType = body.auth_type ?? 'static_token';
  const authKey = authType === 'refresh_token' ? newAuthKey(deps) : undefined;
  const doc = await deps.store.portalLinks.insert(projectId, {
    _id: newId(),
    name: body.name,
    owner_id: ownerId,
    endpoints,
    can_manage_endpoint: body.can_manage_endpoint ?? false,
    auth_type: authType,
    token: deps.box.seal(token),
    token_hash: hashSecret(token),
    auth_key_hash: authKey?.set.auth_key_hash ?? null,
    auth_key_expires_at: authKey?.set.auth_key_expires_at ?? null,
  });
  return { doc, authKey: authKey?.key };
}

export async function getPortalLink(
  deps: GatewayDeps,
  projectId: ProjectId,
  id: string,
): Promise<PortalLinkDoc> {
  const doc = await deps.store.portalLinks.findById(projectId, id);
  if (!doc) throw new NotFoundError('portal link');
  return doc;
}

/** Switching to refresh_token issues an auth key; switching away revokes it. */
export async function updatePortalLink(
  deps: GatewayDeps,
  projectId: ProjectId,
  id: string,
  body: PortalLinkUpdateBody,
) {
  const current = await getPortalLink(deps, projectId, id);
  const set: Partial<PortalLinkDoc> = {};
  for (const key of ['name', 'owner_id', 'endpoints', 'can_manage_endpoint', 'auth_type'] as const)
    if (body[key] !== undefined) (set as Record<string, unknown>)[key] = body[key];
  if (body.owner_id !== undefined || body.endpoints !== undefined)
    await checkTargets(
      deps,
      projectId,
      set.owner_id ?? current.owner_id ?? null,
      set.endpoints ?? current.endpoints ?? [],
    );
  let authKey: string | undefined;
  if (set.auth_type === 'refresh_token' && current.auth_type !== 'refresh_token') {
    const issued = newAuthKey(deps);
    authKey = issued.key;
    Object.assign(set, issued.set);
  } else if (set.auth_type === 'static_token') {
    Object.assign(set, { auth_key_hash: null, auth_key_expires_at: null });
  }
  const doc = await deps.store.portalLinks.update(projectId, id, set);
  if (!doc) throw new NotFoundError('portal link');
  return { doc, authKey };
}

/** A new auth key for a refresh_token link; the previous one stops working. */
export async function refreshPortalAuthKey(deps: GatewayDeps, projectId: ProjectId, id: string) {
  const current = await getPortalLink(deps, projectId, id);
  if (current.auth_type !== 'refresh_token')
    throw new ValidationError('only refresh_token portal links have an auth key', [
      { field: 'auth_type', message: 'must be refresh_token to refresh the auth key' },
    ]);
  const issued = newAuthKey(deps);
  const doc = await deps.store.portalLinks.update(projectId, id, issued.set);
  if (!doc) throw new NotFoundError('portal link');
  return { doc, authKey: issued.key };
}

export async function revokePortalLink(deps: GatewayDeps, projectId: ProjectId, id: string): Promise<void> {
  if (!(await deps.store.portalLinks.softDelete(projectId, id))) throw new NotFoundError('portal link');
}
