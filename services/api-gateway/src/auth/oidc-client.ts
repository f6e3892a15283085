import * as client from 'openid-client';
import type { OidcConfig } from '@hookrail/config';
import { DomainError } from '@hookrail/domain';
import { logoutTokenVerifier, type LogoutSubject, type LogoutTokenVerifier } from './logout-token';

/** What a sign-in started with, kept until the provider sends the browser back (a signed cookie). */
export interface OidcFlow {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** The person an ID token names, and the refresh token that keeps their session alive. */
export interface OidcIdentity {
  sub: string;
  email: string;
  name: string;
  groups: string[];
  refreshToken: string | null;
}

export interface OidcClient {
  /** The provider's authorization URL for a new flow (authorization code with PKCE, state, nonce). */
  start(): Promise<{ url: URL; flow: OidcFlow }>;
  /** Exchanges the callback's code; the library checks state, nonce, PKCE, issuer, audience, expiry. */
  finish(callbackUrl: URL, flow: OidcFlow): Promise<OidcIdentity>;
  /** A refresh grant: fails when the provider has ended the person's grant or removed them. */
  refresh(refreshToken: string): Promise<OidcIdentity>;
  /** A back-channel logout token, verified (logout-token.ts); the person whose sessions end. */
  verifyLogoutToken(token: string): Promise<LogoutSubject>;
}

/** http:// is allowed only for a provider on this machine (the dev provider), never across a network. */
const isLoopback = (issuer: URL) => ['127.0.0.1', 'localhost', '[::1]'].includes(issuer.hostname);

/**
 * The provider's metadata, found once (discovery, `/.well-known/openid-configuration`); a failed
 * discovery is tried again at the next sign-in instead of keeping the gateway from starting.
 */
function discovered(config: OidcConfig): () => Promise<client.Configuration> {
  let found: Promise<client.Configuration> | undefined;
  return () => {
    const issuer = new URL(config.issuer);
    found ??= client
      .discovery(issuer, config.clientId, undefined, client.ClientSecretBasic(config.clientSecret), {
        execute: [
          ...(isLoopback(issuer) && issuer.protocol === 'http:' ? [client.allowInsecureRequests] : []),
          // the ID token's signature is checked too, though it came straight from the token
          // endpoint: a proxy or a misrouted endpoint cannot hand the gateway a forged identity
          client.enableNonRepudiationChecks,
        ],
      })
      .catch((err: unknown) => {
        found = undefined;
        throw new DomainError(
          'unavailable',
          `identity provider ${config.issuer}: discovery failed (${(err as Error).message})`,
        );
      });
    return found;
  };
}

function identityOf(
  tokens: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers,
  groupsClaim: string,
): OidcIdentity {
  const claims = tokens.claims();
  if (!claims) throw new client.ClientError('the provider sent no ID token');
  const groups = claims[groupsClaim];
  return {
    sub: claims.sub,
    email: typeof claims.email === 'string' ? claims.email : '',
    name: typeof claims.name === 'string' ? claims.name : '',
    groups: Array.isArray(groups) ? groups.filter((g): g is string => typeof g === 'string') : [],
    refreshToken: tokens.refresh_token ?? null,
  };
}

export function oidcClient(config: OidcConfig, redirectUri: string): OidcClient {
  const metadata = discovered(config);
  // the provider's signing keys, from its discovery document, fetched once and cached by jose
  let verifier: LogoutTokenVerifier | undefined;
  const logoutTokens = async () =>
    (verifier ??= logoutTokenVerifier((await metadata()).serverMetadata(), config.clientId));
  return {
    async start() {
      const flow = {
        state: client.randomState(),
        nonce: client.randomNonce(),
        codeVerifier: client.randomPKCECodeVerifier(),
      };
      const url = client.buildAuthorizationUrl(await metadata(), {
        redirect_uri: redirectUri,
        scope: config.scopes.join(' '),
        state: flow.state,
        nonce: flow.nonce,
        code_challenge: await client.calculatePKCECodeChallenge(flow.codeVerifier),
        code_challenge_method: 'S256',
      });
      return { url, flow };
    },
    async finish(callbackUrl, flow) {
      const tokens = await client.authorizationCodeGrant(await metadata(), callbackUrl, {
        pkceCodeVerifier: flow.codeVerifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      return identityOf(tokens, config.groupsClaim);
    },
    async refresh(refreshToken) {
      return identityOf(await client.refreshTokenGrant(await metadata(), refreshToken), config.groupsClaim);
    },
    verifyLogoutToken: async (token) => (await logoutTokens()).verify(token),
  };
}
