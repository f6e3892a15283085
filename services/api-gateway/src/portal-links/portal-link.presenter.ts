import { nullableTimestamp } from '@hookrail/domain';
import type { EndpointDoc, PortalLinkDoc } from '@hookrail/store';
import { presentEndpoint } from '../endpoints/endpoint.presenter';
import { scopedOut } from '../common/scoped.presenter';
import type { PresentContext } from '../common/scoped.presenter';

/** `authKey` is the plain key when it was issued by this request; only its hash is stored. */
export function presentPortalLink(
  doc: PortalLinkDoc,
  endpoints: EndpointDoc[],
  ctx: PresentContext,
  authKey = '',
) {
  const token = ctx.box.open(doc.token);
  const authType = doc.auth_type ?? 'static_token';
  return {
    ...scopedOut(doc),
    name: doc.name,
    owner_id: doc.owner_id ?? null,
    endpoints: doc.endpoints ?? [],
    can_manage_endpoint: doc.can_manage_endpoint ?? false,
    auth_type: authType,
    auth_key: authKey,
    auth_key_expires_at: nullableTimestamp(doc.auth_key_expires_at),
    token,
    url: portalUrl(ctx.config.urls.gatewayPublic, authType === 'refresh_token' ? authKey : token),
    endpoint_count: endpoints.length,
    endpoints_metadata: endpoints.map((e) => presentEndpoint(e, ctx)),
  };
}

/**
 * The page opens with the credential the portal accepts (portal-auth.ts): a static_token link's
 * token; a refresh_token link's auth key, known only in the response that issued it (elsewhere
 * the url carries no credential: only a hash of the key is stored).
 */
function portalUrl(base: string, credential: string): string {
  return credential ? `${base}/portal?token=${encodeURIComponent(credential)}` : `${base}/portal`;
}
