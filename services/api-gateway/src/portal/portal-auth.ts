import { DomainError, hashSecret, safeEqual } from '@hookrail/domain';
import type { PortalLinkDoc, ProjectDoc, Store } from '@hookrail/store';
import { authorizeGrant } from '../auth/roles';
import type { Authenticator } from '../http/authenticators';

export interface PortalSession {
  link: PortalLinkDoc;
  project: ProjectDoc;
}

const unauthenticated = (message: string) => new DomainError('unauthenticated', message);

/** `Authorization: Bearer <credential>`, else `?token=` (the link's `url` carries it for the page). */
function portalCredential(header: string | undefined, queryToken: unknown): string | undefined {
  if (header) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!m) throw unauthenticated('malformed Authorization header: expected "Bearer <portal token>"');
    return m[1];
  }
  return typeof queryToken === 'string' && queryToken !== '' ? queryToken : undefined;
}

/**
 * A portal link's holder: a `static_token` link opens with its
 * token; a `refresh_token` link only with its current auth key, until that expires (its long-lived
 * token alone opens nothing, so a leaked page URL stops working within the hour).
 */
async function authenticatePortal(
  credential: string | undefined,
  deps: { store: Store; now: () => Date },
): Promise<PortalSession> {
  if (!credential) throw unauthenticated('missing portal token: send "Authorization: Bearer <token>"');
  const hash = hashSecret(credential);
  const link = await deps.store.portalLinks.findByCredentialHash(hash);
  if (!link) throw unauthenticated('invalid portal token');
  if (link.auth_type === 'refresh_token') {
    if (!link.auth_key_hash || !safeEqual(hash, link.auth_key_hash))
      throw unauthenticated('this portal link authenticates with its auth key, not its token');
    if (!link.auth_key_expires_at || link.auth_key_expires_at <= deps.now())
      throw unauthenticated('portal auth key expired: ask for a refreshed link');
  } else if (!safeEqual(hash, link.token_hash)) {
    throw unauthenticated('invalid portal token');
  }
  const project = await deps.store.projects.findById(link.project_id);
  if (!project) throw unauthenticated('invalid portal token');
  return { link, project };
}

/**
 * The portal's auth kind: the link's token (Bearer, or `?token=` for the page), the link's rights,
 * and the link's project, which every call acts on.
 */
export function portalAuthenticator(deps: { store: Store; now: () => Date }): Authenticator<PortalSession> {
  return {
    authenticate: (req) =>
      authenticatePortal(portalCredential(req.headers.authorization, req.query.token), deps),
    // Any link may read and retry a failed delivery now; the rest needs `can_manage_endpoint`.
    authorize: (session, op) =>
      session.link.can_manage_endpoint
        ? authorizeGrant('portal_link_manager', op, 'this portal link')
        : authorizeGrant('portal_link', op, 'this portal link (it cannot manage endpoints)'),
    project: async (session) => session.project,
  };
}

declare module '../http/call' {
  interface AuthKinds {
    portal: { actor: PortalSession; project: ProjectDoc };
  }
}
