import { exportJWK, generateKeyPair } from 'jose';
import type { ConfigMessage, MetaMessage } from '@hookrail/bus';
import { startOAuth2Server, waitFor, type OAuth2Server } from '@hookrail/testkit';
import { GatewayHarness } from '../testing/gateway-harness';

describe('endpoints API (operations 9, 10, 11, CRUD, pause/activate)', () => {
  const h = new GatewayHarness();
  let p: Awaited<ReturnType<GatewayHarness['createProject']>>;
  let meta: MetaMessage[];
  let config: ConfigMessage[];
  const servers: OAuth2Server[] = [];
  beforeAll(async () => {
    await h.start({ HOOKRAIL_ENCRYPTION_KEY: 'endpoints-test-key' });
    p = await h.createProject('outgoing');
    [meta, config] = await Promise.all([h.collect('meta'), h.collect('config')]);
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
    await h.stop();
  });

  const base = () => `/v1/projects/${p.id}/endpoints`;
  const create = (body: unknown, key = p.key) => h.call('POST', base(), { key, body });

  it('creates an endpoint with a generated secret, emits endpoint.created and a config change', async () => {
    const res = await create({
      name: 'billing',
      url: 'https://billing.example.com/hooks',
      owner_id: 'owner-1',
      http_timeout: 5,
      authentication: { type: 'api_key', api_key: { header_name: 'X-Key', header_value: 'k-123' } },
    });
    expect(res.status).toBe(201);
    const e = res.body.data;
    expect(e).toMatchObject({
      status: 'active',
      owner_id: 'owner-1',
      http_timeout: 5,
      events: 0,
      deleted_at: null,
    });
    expect(e.secrets).toHaveLength(1);
    expect(e.secrets[0].value.length).toBeGreaterThanOrEqual(32);
    expect(e.authentication.api_key.header_value).toBe('k-123');
    const stored = await h.store.endpoints.findById(p.id, e.uid);
    expect(JSON.stringify(stored)).not.toContain(e.secrets[0].value);
    expect(JSON.stringify(stored)).not.toContain('k-123');
    const m = await waitFor('endpoint.created meta event', () =>
      meta.find((x) => x.event_type === 'endpoint.created' && (x.data as { uid: string }).uid === e.uid),
    );
    expect(JSON.stringify(m.data)).not.toContain(e.secrets[0].value);
    await waitFor('config change', () => config.find((x) => x.id === e.uid && x.op === 'created'));

    const read = await h.call('GET', `${base()}/${e.uid}`, { key: p.key });
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(e);
  });

  it('keeps a given secret and rejects bad endpoint bodies with 400 naming the field', async () => {
    const given = await create({ name: 'given', url: 'http://localhost:9/x', secret: 'my-own-secret-123' });
    expect(given.body.data.secrets[0].value).toBe('my-own-secret-123');
    const cases: [unknown, string][] = [
      [{ name: 'x' }, 'url'],
      [{ name: 'x', url: 'not a url' }, 'url'],
      [{ name: 'x', url: 'ftp://example.com' }, 'url'],
      [{ name: 'x', url: 'https://e.com', http_timeout: 600 }, 'http_timeout'],
      [{ name: 'x', url: 'https://e.com', support_email: 'nope' }, 'support_email'],
      [{ name: 'x', url: 'https://e.com', authentication: { type: 'oauth2' } }, 'authentication.oauth2'],
      [{ name: 'x', url: 'https://e.com', authentication: { type: 'bearer' } }, 'authentication.type'],
      [
        {
          name: 'x',
          url: 'https://e.com',
          authentication: {
            type: 'oauth2',
            oauth2: { url: 'https://t.example.com', client_id: 'c', authentication_type: 'client_assertion' },
          },
        },
        'authentication.oauth2.signing_key',
      ],
      [{ name: 'x', url: 'https://e.com', secret: 'short' }, 'secret'],
      [{ name: 'x', url: 'https://e.com', rate_limit: -1 }, 'rate_limit'],
    ];
    for (const [body, field] of cases) {
      const res = await create(body);
      expect(res.status).toBe(400);
      expect(res.body.data.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
  });

  it('requires https when the project enforces secure endpoints', async () => {
    const secure = await h.createProject('outgoing', { ssl: { enforce_secure_endpoints: true } });
    const res = await h.call('POST', `/v1/projects/${secure.id}/endpoints`, {
      key: secure.key,
      body: { name: 'x', url: 'http://e.com' },
    });
    expect(res.status).toBe(400);
    expect(res.body.data.errors[0]).toEqual({ field: 'url', message: expect.stringContaining('https') });
    const ok = await h.call('POST', `/v1/projects/${secure.id}/endpoints`, {
      key: secure.key,
      body: { name: 'x', url: 'https://e.com' },
    });
    expect(ok.status).toBe(201);
  });

  it('rolls the secret: the old one expires after `expiration` seconds, the new one is newest', async () => {
    const e = (await create({ name: 'roll', url: 'https://e.com', advanced_signatures: true })).body.data;
    const before = Date.now();
    const res = await h.call('PUT', `${base()}/${e.uid}/expire_secret`, {
      key: p.key,
      body: { expiration: 3600, secret: 'brand-new-secret' },
    });
    expect(res.status).toBe(200);
    const [old, fresh] = res.body.data.secrets;
    expect(old.uid).toBe(e.secrets[0].uid);
    expect(Date.parse(old.expires_at) - before).toBeGreaterThanOrEqual(3599_000);
    expect(Date.parse(old.expires_at) - before).toBeLessThan(3700_000);
    expect(fresh).toMatchObject({ value: 'brand-new-secret', expires_at: null });
    await waitFor('endpoint.updated', () =>
      meta.find((x) => x.event_type === 'endpoint.updated' && (x.data as { uid: string }).uid === e.uid),
    );

    const generated = await h.call('PUT', `${base()}/${e.uid}/expire_secret`, {
      key: p.key,
      body: { expiration: 0 },
    });
    expect(generated.body.data.secrets).toHaveLength(3);
    expect(Date.parse(generated.body.data.secrets[1].expires_at)).toBeLessThanOrEqual(Date.now());
    expect(generated.body.data.secrets[2].value).not.toBe('brand-new-secret');

    for (const body of [
      {},
      { expiration: -1 },
      { expiration: 31 * 86400 },
      { expiration: '60' },
      { expiration: 1, colour: 1 },
    ]) {
      expect((await h.call('PUT', `${base()}/${e.uid}/expire_secret`, { key: p.key, body })).status).toBe(
        400,
      );
    }
  });

  it('updates, pauses, activates and deletes an endpoint (and emits updated/deleted)', async () => {
    const e = (await create({ name: 'life', url: 'https://e.com' })).body.data;
    const upd = await h.call('PUT', `${base()}/${e.uid}`, {
      key: p.key,
      body: { description: 'd', rate_limit: 10, rate_limit_duration: 60 },
    });
    expect(upd.status).toBe(202);
    expect(upd.body.data).toMatchObject({
      description: 'd',
      rate_limit: 10,
      rate_limit_duration: 60,
      name: 'life',
    });
    expect(e).toMatchObject({ status_reason: null, circuit_breaker: { state: 'closed', reason: null } });
    expect((await h.call('PUT', `${base()}/${e.uid}/pause`, { key: p.key })).body.data).toMatchObject({
      status: 'paused',
      status_reason: 'paused through the API',
    });
    expect((await h.call('PUT', `${base()}/${e.uid}/activate`, { key: p.key })).body.data).toMatchObject({
      status: 'active',
      status_reason: null,
    });
    const listPaused = await h.call('GET', `${base()}?status=paused`, { key: p.key });
    expect(listPaused.body.data.content.map((x: { uid: string }) => x.uid)).not.toContain(e.uid);
    expect((await h.call('DELETE', `${base()}/${e.uid}`, { key: p.key })).status).toBe(200);
    expect((await h.call('GET', `${base()}/${e.uid}`, { key: p.key })).status).toBe(404);
    await waitFor('endpoint.deleted', () =>
      meta.find((x) => x.event_type === 'endpoint.deleted' && (x.data as { uid: string }).uid === e.uid),
    );
  });

  it('clears the owner, the authentication and other optional settings only through `clear`', async () => {
    const e = (
      await create({
        name: 'cleared',
        url: 'https://e.com/cleared',
        owner_id: 'owner-c',
        support_email: 'ops@e.com',
        authentication: { type: 'basic_auth', basic_auth: { username: 'u', password: 'p' } },
      })
    ).body.data;
    const put = (body: unknown) => h.call('PUT', `${base()}/${e.uid}`, { key: p.key, body });
    // what Convoy's clients send for a field left unset keeps the stored value
    const kept = await put({ owner_id: '', authentication: null, support_email: null, description: 'd' });
    expect(kept.status).toBe(202);
    expect(kept.body.data).toMatchObject({
      owner_id: 'owner-c',
      support_email: 'ops@e.com',
      authentication: { type: 'basic_auth' },
    });

    const emptied = await put({ clear: ['owner_id', 'authentication', 'support_email'] });
    expect(emptied.status).toBe(202);
    expect(emptied.body.data).toMatchObject({
      owner_id: null,
      authentication: null,
      support_email: null,
      description: 'd',
    });
    const read = (await h.call('GET', `${base()}/${e.uid}`, { key: p.key })).body.data;
    expect(read).toMatchObject({ owner_id: null, authentication: null, support_email: null });
    const byOwner = await h.call('GET', `${base()}?ownerId=owner-c`, { key: p.key });
    expect(byOwner.body.data.content).toEqual([]);

    // a field both set and cleared, an unknown or a repeated one: 400 naming `clear`, nothing changed
    for (const body of [
      { owner_id: 'owner-d', clear: ['owner_id'] },
      { clear: ['name'] },
      { clear: ['owner_id', 'owner_id'] },
      { clear: 'owner_id' },
    ]) {
      const bad = await put(body);
      expect(bad.status).toBe(400);
      expect(bad.body.data.errors[0].field).toMatch(/^clear/);
    }
    expect((await put({ owner_id: 'owner-d' })).body.data.owner_id).toBe('owner-d');
  });

  it("isolates projects: another project's endpoint is 404 for every operation", async () => {
    const other = await h.createProject();
    const e = (await create({ name: 'iso', url: 'https://e.com' })).body.data;
    const path = `/v1/projects/${other.id}/endpoints/${e.uid}`;
    expect((await h.call('GET', path, { key: other.key })).status).toBe(404);
    expect((await h.call('PUT', path, { key: other.key, body: { name: 'stolen' } })).status).toBe(404);
    expect(
      (await h.call('PUT', `${path}/expire_secret`, { key: other.key, body: { expiration: 0 } })).status,
    ).toBe(404);
    expect((await h.call('PUT', `${path}/pause`, { key: other.key })).status).toBe(404);
    expect((await h.call('DELETE', path, { key: other.key })).status).toBe(404);
    expect((await h.call('GET', `${base()}/${e.uid}`, { key: other.key })).status).toBe(403);
    const mine = await h.call('GET', `${base()}/${e.uid}`, { key: p.key });
    expect(mine.body.data).toMatchObject({ name: 'iso', status: 'active', secrets: e.secrets });
  });

  it('lists endpoints by owner across pages', async () => {
    const q = await h.createProject();
    for (let i = 0; i < 3; i++)
      await h.call('POST', `/v1/projects/${q.id}/endpoints`, {
        key: q.key,
        body: { name: `e${i}`, url: 'https://e.com', owner_id: 'o' },
      });
    await h.call('POST', `/v1/projects/${q.id}/endpoints`, {
      key: q.key,
      body: { name: 'x', url: 'https://e.com', owner_id: 'other' },
    });
    const first = await h.call('GET', `/v1/projects/${q.id}/endpoints?owner_id=o&perPage=2`, { key: q.key });
    expect(first.body.data.content).toHaveLength(2);
    const second = await h.call(
      'GET',
      `/v1/projects/${q.id}/endpoints?owner_id=o&perPage=2&next_page_cursor=${first.body.data.pagination.next_page_cursor}`,
      { key: q.key },
    );
    expect(second.body.data.content).toHaveLength(1);
    expect(second.body.data.pagination.has_next_page).toBe(false);
  });

  describe('oauth2/test performs a real token request', () => {
    it('succeeds with a shared secret', async () => {
      const server = await startOAuth2Server({ clientId: 'c1', clientSecret: 'sec', expiresIn: 300 });
      servers.push(server);
      const res = await h.call('POST', `${base()}/oauth2/test`, {
        key: p.key,
        body: {
          oauth2: {
            url: `${server.url}/token`,
            client_id: 'c1',
            client_secret: 'sec',
            authentication_type: 'shared_secret',
            expiry_time_unit: 'seconds',
          },
        },
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ success: true, access_token: server.issued[0], error: '' });
      expect(Date.parse(res.body.data.expires_at)).toBeGreaterThan(Date.now() + 250_000);
    });

    it('succeeds with a client_assertion JWT signed by the JWK signing_key', async () => {
      const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
      const server = await startOAuth2Server({
        clientId: 'c2',
        publicJwk: { ...(await exportJWK(publicKey)), alg: 'ES256' },
      });
      servers.push(server);
      const jwk = await exportJWK(privateKey);
      const res = await h.call('POST', `${base()}/oauth2/test`, {
        key: p.key,
        body: {
          oauth2: {
            url: `${server.url}/token`,
            client_id: 'c2',
            authentication_type: 'client_assertion',
            signing_algorithm: 'ES256',
            signing_key: JSON.stringify(jwk),
          },
        },
      });
      expect(res.body.data).toMatchObject({ success: true, access_token: server.issued[0] });
      expect(server.requests[0].client_assertion).toEqual(expect.any(String));
    });

    it('reports a rejected secret and an unreachable server in data with HTTP 200', async () => {
      const server = await startOAuth2Server({ clientId: 'c3', clientSecret: 'right' });
      servers.push(server);
      const rejected = await h.call('POST', `${base()}/oauth2/test`, {
        key: p.key,
        body: { oauth2: { url: `${server.url}/token`, client_id: 'c3', client_secret: 'wrong' } },
      });
      expect(rejected.status).toBe(200);
      expect(rejected.body.data).toMatchObject({
        success: false,
        error: 'token_endpoint_error',
        access_token: '',
      });
      expect(rejected.body.data.message).toContain('401');
      const down = await h.call('POST', `${base()}/oauth2/test`, {
        key: p.key,
        body: { oauth2: { url: 'http://127.0.0.1:9/token', client_id: 'c', client_secret: 's' } },
      });
      expect(down.status).toBe(200);
      expect(down.body.data).toMatchObject({ success: false, error: 'request_failed' });
    });

    it('answers 400 for an invalid test body', async () => {
      for (const [body, field] of [
        [{}, 'oauth2'],
        [{ oauth2: { client_id: 'c', client_secret: 's' } }, 'oauth2.url'],
        [{ oauth2: { url: 'https://t.example.com', client_id: 'c' } }, 'oauth2.client_secret'],
        [
          {
            oauth2: {
              url: 'https://t.example.com',
              client_id: 'c',
              client_secret: 's',
              expiry_time_unit: 'fortnights',
            },
          },
          'oauth2.expiry_time_unit',
        ],
        [
          {
            oauth2: {
              url: 'https://t.example.com',
              client_id: 'c',
              authentication_type: 'client_assertion',
              signing_algorithm: 'ES256',
              signing_key: '{nope',
            },
          },
          'oauth2.signing_key',
        ],
      ] as [unknown, string][]) {
        const res = await h.call('POST', `${base()}/oauth2/test`, { key: p.key, body });
        expect(res.status).toBe(400);
        expect(res.body.data.errors.map((e: { field: string }) => e.field)).toContain(field);
      }
    });
  });
});
