import { exportJWK, generateKeyPair } from 'jose';
import { startOAuth2Server, type OAuth2Server } from '@hookrail/testkit';
import { HttpClient } from '../http/http-client';
import { fetchOAuth2Token } from './fetch-token';
import { OAuth2TokenCache } from './token-cache';

describe('fetchOAuth2Token against a real local token endpoint', () => {
  const http = new HttpClient({ allowPrivateTargets: true });
  const servers: OAuth2Server[] = [];
  afterAll(async () => {
    http.close();
    await Promise.all(servers.map((s) => s.close()));
  });
  const start = async (opts: Parameters<typeof startOAuth2Server>[0]) => {
    const s = await startOAuth2Server(opts);
    servers.push(s);
    return s;
  };

  it('gets a token with a shared secret and computes expires_at from expires_in seconds', async () => {
    const server = await start({ clientId: 'client-1', clientSecret: 's3cret', expiresIn: 120 });
    const before = Date.now();
    const res = await fetchOAuth2Token(
      {
        url: `${server.url}/token`,
        client_id: 'client-1',
        client_secret: 's3cret',
        authentication_type: 'shared_secret',
        scope: 'hooks',
      },
      { http },
    );
    expect(res).toMatchObject({ success: true, access_token: server.issued[0], token_type: 'Bearer' });
    if (!res.success) throw new Error('unreachable');
    expect(res.expiresAtMs).toBeGreaterThanOrEqual(before + 120_000);
    expect(res.expires_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(server.requests[0]).toMatchObject({ grant_type: 'client_credentials', scope: 'hooks' });
  });

  it.each(['ES256', 'RS256', 'EdDSA'])(
    'signs a client_assertion JWT with a %s JWK the server verifies',
    async (alg) => {
      const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
      const server = await start({
        clientId: 'client-jwt',
        publicJwk: { ...(await exportJWK(publicKey)), alg },
      });
      const res = await fetchOAuth2Token(
        {
          url: `${server.url}/token`,
          client_id: 'client-jwt',
          authentication_type: 'client_assertion',
          signing_algorithm: alg,
          signing_key: { ...(await exportJWK(privateKey)), kid: 'k1' },
        },
        { http },
      );
      expect(res).toMatchObject({ success: true, access_token: server.issued[0] });
      expect(server.requests[0].client_assertion_type).toBe(
        'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      );
    },
  );

  it('honours field_mapping and expiry_time_unit', async () => {
    const server = await start({
      clientId: 'c',
      clientSecret: 's',
      expiresIn: 2,
      fieldNames: { access_token: 'tok', token_type: 'kind', expires_in: 'ttl' },
    });
    const before = Date.now();
    const res = await fetchOAuth2Token(
      {
        url: `${server.url}/token`,
        client_id: 'c',
        client_secret: 's',
        field_mapping: { access_token: 'tok', token_type: 'kind', expires_in: 'ttl' },
        expiry_time_unit: 'minutes',
      },
      { http },
    );
    expect(res).toMatchObject({ success: true, access_token: server.issued[0] });
    if (!res.success) throw new Error('unreachable');
    expect(res.expiresAtMs - before).toBeGreaterThanOrEqual(120_000);
    expect(res.expiresAtMs - before).toBeLessThan(125_000);
  });

  it('reports a rejected secret as token_endpoint_error with the status', async () => {
    const server = await start({ clientId: 'c', clientSecret: 'right' });
    const res = await fetchOAuth2Token(
      { url: `${server.url}/token`, client_id: 'c', client_secret: 'wrong' },
      { http },
    );
    expect(res).toMatchObject({ success: false, error: 'token_endpoint_error' });
    expect(!res.success && res.message).toContain('401');
  });

  it('reports an unreachable token URL as request_failed and bad settings as invalid_config', async () => {
    const down = await fetchOAuth2Token(
      { url: 'http://127.0.0.1:1/token', client_id: 'c', client_secret: 's' },
      { http },
    );
    expect(down).toMatchObject({ success: false, error: 'request_failed' });
    const badAlg = await fetchOAuth2Token(
      {
        url: 'http://127.0.0.1:1/token',
        client_id: 'c',
        authentication_type: 'client_assertion',
        signing_algorithm: 'none',
        signing_key: { kty: 'oct', k: 'AA' },
      },
      { http },
    );
    expect(badAlg).toMatchObject({ success: false, error: 'invalid_config' });
    expect(!badAlg.success && badAlg.message).toContain('none');
  });

  it('refuses a private token URL when private targets are not allowed (SSRF)', async () => {
    const guarded = new HttpClient({ allowPrivateTargets: false });
    const res = await fetchOAuth2Token(
      { url: 'http://127.0.0.1:9/token', client_id: 'c', client_secret: 's' },
      { http: guarded },
    );
    expect(res).toMatchObject({ success: false, error: 'request_failed' });
    expect(!res.success && res.message).toMatch(/not allowed/);
  });

  it('fetches one token for 30 concurrent deliveries to the same endpoint through the cache', async () => {
    const server = await start({ clientId: 'c', clientSecret: 's', delayMs: 50 });
    const cache = new OAuth2TokenCache((cfg) => fetchOAuth2Token(cfg, { http }));
    const cfg = { url: `${server.url}/token`, client_id: 'c', client_secret: 's' };
    const all = await Promise.all(Array.from({ length: 30 }, () => cache.get('ep', cfg)));
    expect(server.issued).toHaveLength(1);
    expect(all.every((r) => r.success && r.access_token === server.issued[0])).toBe(true);
  });
});
