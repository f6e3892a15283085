import { nullableTimestamp } from '@hookrail/domain';
import type { EndpointDoc, PortalLinkDoc } from '@hookrail/store';
import { presentEndpoint } from './endpoint.presenter';
import { scopedOut } from './scoped.presenter';
import type { PresentContext } from './source.presenter';

/** `authKey` is the plain key when it was issued by this request; only its hash is stored. */
export function presentPortalLink(
  doc: PortalLinkDoc,
  endpoints: EndpointDoc[],
  ctx: PresentContext,
  authKey = '',
) {
  const token = ctx.box.open(doc.token);
  return {
    ...scopedOut(doc),
    name: doc.name,
    owner_id: doc.owner_id ?? null,
    endpoints: doc.endpoints ?? [],
    can_manage_endpoint: doc.can_manage_endpoint ?? false,
    auth_type: doc.auth_type ?? 'static_token',
    auth_key: authKey,
    auth_key_expires_at: nullableTimestamp(doc.auth_key_expires_at),
    token,
    url: `${ctx.config.urls.gatewayPublic}/portal?token=${encodeURIComponent(token)}`,
    endpoint_count: endpoints.length,
    endpoints_metadata: endpoints.map((e) => presentEndpoint(e, ctx)),
  };
}
