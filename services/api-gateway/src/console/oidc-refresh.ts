import type { Request } from 'express';
import type { OidcConfig } from '@hookrail/config';
import { DomainError, errorMessage } from '@hookrail/domain';
import type { OidcClient, OidcIdentity } from '../auth/oidc-client';
import { SESSION_COOKIE, openText, signSession, type SessionClaims } from './console-session';
import { signInFailure } from './oidc-errors';
import { sessionOf, type OidcSignInDeps } from './oidc-sign-in';
import { signInAuditor } from './sign-in-audit';

/**
 * Keeps a person's session tied to the provider: once `refreshSeconds` have passed, the next call
 * asks the provider for a fresh token with the session's refresh token. A refusal (the person was
 * removed or their grant revoked, or their groups no longer map to a role) ends the session: 401.
 * A provider that cannot be reached does not end it; the session asks again after another period.
 * The new roles (groups may have changed) replace the old ones; the session's expiry stays.
 */
export function sessionRefresher(oidc: OidcClient, config: OidcConfig, deps: OidcSignInDeps) {
  // one refresh per token at a time: a page's parallel calls share it (a rotating provider would
  // otherwise see the old token used twice and revoke the grant)
  const inFlight = new Map<string, Promise<OidcIdentity>>();
  const audit = signInAuditor(deps.gateway);
  const refreshOnce = (token: string) => {
    let pending = inFlight.get(token);
    if (!pending) {
      pending = oidc.refresh(token).finally(() => inFlight.delete(token));
      inFlight.set(token, pending);
    }
    return pending;
  };
  return async (req: Request, claims: SessionClaims): Promise<SessionClaims> => {
    const now = deps.gateway.now().getTime();
    if (claims.kind !== 'user' || !claims.refresh || claims.refresh.at > now) return claims;
    const sealed = claims.refresh.sealed;
    let next: SessionClaims;
    try {
      const person = await refreshOnce(await openText(sealed, deps.secret));
      const renewed = await sessionOf(person, config, deps);
      // the same expiry and nonce (so the page's CSRF token stays valid); a provider that did not
      // rotate the refresh token leaves the old one in use
      const refresh = { sealed: renewed.refresh?.sealed ?? sealed, at: now + config.refreshSeconds * 1000 };
      // the sign-in's time too: a back-channel logout since then still ends the session
      const user = { ...renewed.user!, signed_in_at: claims.user?.signed_in_at };
      next = { ...renewed, user, exp: claims.exp, nonce: claims.nonce, refresh };
    } catch (err) {
      const failure = signInFailure(err);
      if (failure.status >= 500) {
        deps.gateway.logger.warn(
          { error: errorMessage(err) },
          'console session: provider unreachable, refresh later',
        );
        next = { ...claims, refresh: { sealed, at: now + config.refreshSeconds * 1000 } };
      } else {
        req.res?.clearCookie(SESSION_COOKIE, { path: '/' });
        audit(req, { ok: false, ended: true, status: 401, reason: failure.message, person: claims.user });
        throw new DomainError(
          'unauthenticated',
          `your identity provider ended this session (${failure.message}): sign in again`,
        );
      }
    }
    req.res?.cookie(SESSION_COOKIE, await signSession(next, deps.secret), {
      path: '/',
      httpOnly: true,
      sameSite: 'strict',
      secure: deps.gateway.config.urls.gatewayPublic.startsWith('https://'),
      maxAge: Math.max(0, claims.exp - now),
    });
    return next;
  };
}
