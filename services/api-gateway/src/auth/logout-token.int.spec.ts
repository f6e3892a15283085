import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import { logoutTokenVerifier, LogoutTokenRefused, type LogoutTokenVerifier } from './logout-token';

const EVENT = { 'http://schemas.openid.net/event/backchannel-logout': {} };
const ISSUER = 'http://127.0.0.1/issuer';

/**
 * The checks a logout token passes besides its signature (OpenID Connect Back-Channel Logout 1.0,
 * section 2.6), against a provider's keys served over HTTP as a provider's jwks_uri is.
 */
describe('logout tokens', () => {
  let server: Server;
  let key: CryptoKey;
  let verifier: LogoutTokenVerifier;
  beforeAll(async () => {
    const pair = await generateKeyPair('RS256', { extractable: true });
    key = pair.privateKey as CryptoKey;
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
    server = createServer((_req, res) =>
      res.setHeader('content-type', 'application/json').end(JSON.stringify({ keys: [jwk] })),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const jwks = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`;
    verifier = logoutTokenVerifier({ issuer: ISSUER, jwks_uri: jwks }, 'console');
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const token = (claims: JWTPayload, opts: { audience?: string; iat?: number } = {}) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setIssuer(ISSUER)
      .setAudience(opts.audience ?? 'console')
      .setIssuedAt(opts.iat)
      .setJti(`jti-${Math.random()}`)
      .sign(key);

  it('names the person of a valid token', async () => {
    await expect(verifier.verify(await token({ sub: 'user-alice', events: EVENT }))).resolves.toEqual({
      sub: 'user-alice',
    });
  });

  it.each([
    ['without the back-channel logout event', { sub: 'user-alice', events: {} }, {}, /events/],
    ['with a nonce (an ID token)', { sub: 'user-alice', events: EVENT, nonce: 'n' }, {}, /nonce/],
    ['naming only a provider session', { sid: 's1', events: EVENT }, {}, /names no person/],
    ['for another client', { sub: 'user-alice', events: EVENT }, { audience: 'other' }, /aud/],
    [
      'issued an hour ago',
      { sub: 'user-alice', events: EVENT },
      { iat: Math.floor(Date.now() / 1000) - 3600 },
      /iat|age/,
    ],
  ] as const)('refuses a token %s', async (_what, claims, opts, message) => {
    const refused = verifier.verify(await token(claims, opts));
    await expect(refused).rejects.toBeInstanceOf(LogoutTokenRefused);
    await expect(refused).rejects.toThrow(message);
  });
});
