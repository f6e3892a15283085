import type { Request } from 'express';
import { DomainError } from '@hookrail/domain';
import type { ConfigCache } from '@hookrail/store';
import { keyRefusal, type Principal } from '../auth/principal';
import { authorizeGrant } from '../auth/roles';
import type { Authenticator } from '../http/authenticators';
import {
  CSRF_HEADER,
  SESSION_COOKIE,
  checkCsrf,
  claimsPrincipal,
  readCookie,
  verifySession,
  type SessionClaims,
} from './console-session';

export interface ConsoleAuthDeps {
  cache: ConfigCache;
  secret: Buffer;
  now: () => Date;
  /** Single sign-on: a person's session checked with the provider now and then (oidc-refresh.ts). */
  refresh?: (req: Request, claims: SessionClaims) => Promise<SessionClaims>;
  /** Single sign-on: the roles an owner assigned, and the provider's logouts (person-session.ts). */
  person?: (claims: SessionClaims) => Promise<SessionClaims>;
}

const unauthenticated = (message: string) => new DomainError('unauthenticated', message);
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses a request the browser marks as coming from another site. SameSite=Strict already keeps
 * the cookie off such requests; this is the second line for browsers that send it anyway.
 */
function refuseCrossSite(req: Request): void {
  const site = req.headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site')
    throw new DomainError('forbidden', 'console: cross-site requests are refused');
  const origin = req.headers.origin;
  if (origin && origin !== 'null') {
    let host: string;
    try {
      host = new URL(origin).host;
    } catch {
      throw new DomainError('forbidden', 'console: malformed Origin header');
    }
    if (host !== req.headers.host)
      throw new DomainError('forbidden', 'console: cross-origin requests are refused');
  }
}

/** The session in the request's cookie, verified; `undefined` when there is no cookie at all. */
export async function consoleClaims(req: Request, deps: ConsoleAuthDeps): Promise<SessionClaims | undefined> {
  const token = readCookie(req.headers.cookie, SESSION_COOKIE);
  if (token === undefined || token === '') return undefined;
  const check = await verifySession(token, deps.secret, deps.now());
  if (!check.ok)
    throw unauthenticated(
      check.reason === 'expired'
        ? 'console session expired: sign in again'
        : 'invalid console session: sign in again',
    );
  const { claims } = check;
  if (claims.kind === 'user') {
    if (!deps.refresh || !deps.person)
      throw unauthenticated('single sign-on is not configured on this gateway: sign in again');
    return deps.person(await deps.refresh(req, claims));
  }
  if (claims.kind === 'project') {
    // A revoked or expired key ends the sessions opened with it.
    const key = await deps.cache.apiKey(claims.keyId!);
    const refusal = keyRefusal(key?.project_id === claims.projectId ? key : null, deps.now());
    if (refusal)
      throw unauthenticated(
        `the API key this console session was opened with is no longer valid (${refusal})`,
      );
  }
  return claims;
}

/**
 * For the management API: a request without an Authorization header but with a console cookie is
 * authenticated by the session; state-changing methods also need the anti-CSRF header.
 */
export function consoleSessionAuth(deps: ConsoleAuthDeps) {
  return async (req: Request): Promise<Principal | undefined> => {
    if (req.headers.authorization !== undefined) return undefined;
    const claims = await consoleClaims(req, deps);
    if (!claims) return undefined;
    refuseCrossSite(req);
    if (!SAFE_METHODS.has(req.method)) checkCsrf(claims, deps.secret, req.get(CSRF_HEADER));
    return claimsPrincipal(claims);
  };
}

/**
 * The console's auth kind (its own session calls): the cookie's session, required; a state change
 * also needs a same-site request and the anti-CSRF header, as on the management API.
 */
export function consoleAuthenticator(deps: ConsoleAuthDeps): Authenticator<SessionClaims> {
  return {
    async authenticate(req) {
      const claims = await consoleClaims(req, deps);
      if (!claims) throw unauthenticated('not signed in');
      if (!SAFE_METHODS.has(req.method)) {
        refuseCrossSite(req);
        checkCsrf(claims, deps.secret, req.get(CSRF_HEADER));
      }
      return claims;
    },
    authorize: (claims, op) => authorizeGrant(claims.role, op, `this session's role ${claims.role}`),
    project: async () => null,
  };
}

/**
 * The `public` auth kind: anyone. Its state changes (the console's sign-in and sign-out) come only
 * from the gateway's own pages: a request the browser marks as cross-site is refused.
 */
export const publicAuthenticator: Authenticator<null> = {
  async authenticate(req) {
    if (!SAFE_METHODS.has(req.method)) refuseCrossSite(req);
    return null;
  },
  authorize: () => undefined,
  project: async () => null,
};

declare module '../http/call' {
  interface AuthKinds {
    console: { actor: SessionClaims; project: null };
  }
}
