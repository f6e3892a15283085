import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type CryptoKey, type JWK } from 'jose';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { withTokenFault, type Fault } from './faults';
import { interactionRoutes } from './interactions';
import { DEMO_USERS, type DemoUser } from './users';

export interface DevIdpOptions {
  /** 0: any free port (tests); the issuer is http://127.0.0.1:<port>. */
  port: number;
  clientId: string;
  clientSecret: string;
  /** The gateway's callback, e.g. http://127.0.0.1:8080/console/oidc/callback. */
  redirectUris: string[];
  /**
   * Where the provider posts a logout token when a person's session ends here (OpenID Connect
   * Back-Channel Logout), e.g. http://127.0.0.1:8080/console/oidc/backchannel-logout.
   */
  backchannelLogoutUri?: string;
}

export interface DevIdp {
  issuer: string;
  /** Removes a person: their refresh tokens stop working, as when an IdP deletes an account. */
  removeUser(login: string): void;
  /** Tests: spoil the ID tokens the token endpoint sends from now on ('none' to stop). */
  setFault(fault: Fault): void;
  close(): Promise<void>;
}

const isLoopback = (url: URL | string) => ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(url).hostname);

/**
 * Every grant of the one first-party client is implied (no consent page): the dev provider stands
 * for a company IdP whose administrators registered the console for everyone.
 */
async function impliedGrant(ctx: KoaContextWithOIDC) {
  const { oidc } = ctx;
  const existing = oidc.result?.consent?.grantId ?? oidc.session!.grantIdFor(oidc.client!.clientId);
  if (existing) return oidc.provider.Grant.find(existing);
  const grant = new oidc.provider.Grant({
    clientId: oidc.client!.clientId,
    accountId: oidc.session!.accountId,
  });
  grant.addOIDCScope('openid email profile groups offline_access');
  await grant.save();
  return grant;
}

function configuration(options: DevIdpOptions, users: () => readonly DemoUser[], jwk: JWK): Configuration {
  return {
    jwks: { keys: [jwk] },
    clients: [
      {
        client_id: options.clientId,
        client_secret: options.clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        ...(options.backchannelLogoutUri && { backchannel_logout_uri: options.backchannelLogoutUri }),
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'], groups: ['groups'] },
    scopes: ['openid', 'offline_access', 'email', 'profile', 'groups'],
    // the gateway reads e-mail, name and groups from the ID token, as most IdPs can be set to send
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    // oidc-provider's calls out (the back-channel logout) refuse loopback addresses, an SSRF guard
    // right for a real provider; this one's gateway is on the same machine, so only there it is lifted
    fetch: (url, init) => {
      if (!isLoopback(url instanceof Request ? url.url : url)) return globalThis.fetch(url, init);
      const { dispatcher: _guarded, ...plain } = init as RequestInit & { dispatcher?: unknown };
      return globalThis.fetch(url, plain);
    },
    // signing out here (/session/end) posts a logout token to the gateway's back-channel URI
    features: { devInteractions: { enabled: false }, backchannelLogout: { enabled: true } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    loadExistingGrant: impliedGrant,
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    findAccount: (_ctx, sub) => {
      const user = users().find((u) => u.sub === sub);
      if (!user) return undefined;
      return {
        accountId: user.sub,
        claims: () => ({
          sub: user.sub,
          email: user.email,
          email_verified: true,
          name: user.name,
          groups: user.groups,
        }),
      };
    },
    ttl: {
      AccessToken: 300,
      IdToken: 300,
      RefreshToken: 86_400,
      Session: 86_400,
      Interaction: 600,
      Grant: 86_400,
    },
  };
}

/** Starts the provider on 127.0.0.1 with the demo users (in memory: a restart forgets sessions). */
export async function startDevIdp(options: DevIdpOptions): Promise<DevIdp> {
  let users: DemoUser[] = [...DEMO_USERS];
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(options.port, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // a key of its own (oidc-provider's built-in one is for quick starts), also what a fault signs with
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: 'dev-idp', alg: 'RS256', use: 'sig' };
  const provider = new Provider(
    issuer,
    configuration(options, () => users, jwk),
  );
  // what the provider's back-channel logout calls got: the tests read it in the process's output
  provider.on('backchannel.success', (_ctx, client, accountId) =>
    console.log(`dev identity provider: back-channel logout of ${accountId} sent to ${client.clientId}`),
  );
  provider.on('backchannel.error', (_ctx, err, client, accountId) =>
    console.error(
      `dev identity provider: back-channel logout of ${accountId} to ${client.clientId} failed: ${(err as Error).message}`,
    ),
  );
  const interactions = interactionRoutes(provider, () => users);
  const oidc = provider.callback();
  let fault: Fault = 'none';
  server.on('request', (req, res) => {
    withTokenFault(req, res, () => fault, privateKey as CryptoKey);
    interactions(req, res)
      .then(async (handled) => {
        if (!handled) await oidc(req, res);
      })
      .catch((err: unknown) => {
        res.statusCode = 400;
        res.end(`dev identity provider: ${err instanceof Error ? err.message : String(err)}`);
      });
  });
  return {
    issuer,
    removeUser: (login) => void (users = users.filter((u) => u.login !== login)),
    setFault: (next) => void (fault = next),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
