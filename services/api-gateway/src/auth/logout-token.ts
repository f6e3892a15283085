import { createRemoteJWKSet, jwtVerify } from 'jose';
import type { ServerMetadata } from 'openid-client';

/** OpenID Connect Back-Channel Logout 1.0, section 2.4: what marks a JWT as a logout token. */
const LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';
/** A logout token older than this is refused (the spec leaves the bound to the client). */
const MAX_AGE = '5m';

/** The person a valid logout token names. */
export interface LogoutSubject {
  sub: string;
}

/** A logout token the gateway refuses, and why (answered as a 400, recorded). */
export class LogoutTokenRefused extends Error {}

export interface LogoutTokenVerifier {
  verify(token: string): Promise<LogoutSubject>;
}

/**
 * Verifies logout tokens as section 2.6 of the spec asks. openid-client 6 has no logout-token
 * validation, so jose (the library openid-client itself builds on) checks the JWT: the signature
 * against the provider's published keys (`jwks_uri`), the issuer, this client as the audience,
 * `iat` within MAX_AGE, and `jti` present; then the two claims only a logout token has: the
 * back-channel logout event, and no `nonce` (an ID token cannot be replayed as one). Sessions end by
 * person: a token naming only a provider session (`sid`, no `sub`) is refused.
 */
export function logoutTokenVerifier(metadata: ServerMetadata, clientId: string): LogoutTokenVerifier {
  if (!metadata.jwks_uri) throw new LogoutTokenRefused('the provider publishes no jwks_uri');
  const keys = createRemoteJWKSet(new URL(metadata.jwks_uri));
  return {
    async verify(token) {
      let payload: Record<string, unknown>;
      try {
        ({ payload } = await jwtVerify(token, keys, {
          issuer: metadata.issuer,
          audience: clientId,
          maxTokenAge: MAX_AGE,
          requiredClaims: ['iat', 'jti', 'events'],
        }));
      } catch (err) {
        throw new LogoutTokenRefused(`logout token refused: ${(err as Error).message}`);
      }
      const events = payload.events as Record<string, unknown> | undefined;
      if (typeof events !== 'object' || events === null || !(LOGOUT_EVENT in events))
        throw new LogoutTokenRefused(`logout token refused: its "events" claim lacks ${LOGOUT_EVENT}`);
      if ('nonce' in payload) throw new LogoutTokenRefused('logout token refused: it carries a "nonce"');
      if (typeof payload.sub !== 'string' || payload.sub === '')
        throw new LogoutTokenRefused(
          'logout token refused: it names no person ("sub"), which this gateway needs',
        );
      return { sub: payload.sub };
    },
  };
}
