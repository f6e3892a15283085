import { request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { CONFIG_TTL_MS } from '@hookrail/store';
import { ADMIN_KEY, GatewayHarness } from '../testing/gateway-harness';

describe('projects, API keys and authentication', () => {
  const h = new GatewayHarness();
  beforeAll(() => h.start());
  afterAll(() => h.stop());

  it('creates a project with the admin key and returns its first API key once', async () => {
    const res = await h.call('POST', '/v1/projects', {
      key: ADMIN_KEY,
      body: { name: 'acme', type: 'outgoing', config: { ssl: { enforce_secure_endpoints: true } } },
    });
    expect(res.status).toBe(201);
    const { uid, api_key, config } = res.body.data;
    expect(api_key.key).toMatch(/^hr_[0-9A-Z]{26}\.[A-Za-z0-9_-]+$/);
    expect(config.ssl.enforce_secure_endpoints).toBe(true);
    expect(config.strategy).toEqual({ type: 'linear', duration: 100, retry_count: 10 });
    const stored = await h.store.apiKeys.findByKeyId(api_key.uid);
    expect(stored?.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(api_key.key.split('.')[1]);

    const read = await h.call('GET', `/v1/projects/${uid}`, { key: api_key.key });
    expect(read.status).toBe(200);
    expect(read.body.data.uid).toBe(uid);
    expect(read.body.data).not.toHaveProperty('api_key');
  });

  it('answers 401 without a key, with an unknown key and with a malformed header', async () => {
    const p = await h.createProject();
    for (const key of [null, 'hr_01ARZ3NDEKTSV4RRFFQ69G5FAV.not-a-real-secret-value', 'garbage']) {
      const res = await h.call('GET', `/v1/projects/${p.id}`, { key });
      expect(res.status).toBe(401);
      expect(res.body.status).toBe(false);
    }
    const wrongScheme = await h.call('GET', `/v1/projects/${p.id}`, {
      headers: { authorization: `Basic ${p.key}` },
    });
    expect(wrongScheme.status).toBe(401);
    const listNoKey = await h.call('GET', '/v1/projects');
    expect(listNoKey.status).toBe(401);
  });

  it("answers 403 when a project key is used on another project's path or an admin-only route", async () => {
    const a = await h.createProject();
    const b = await h.createProject();
    expect((await h.call('GET', `/v1/projects/${b.id}`, { key: a.key })).status).toBe(403);
    expect((await h.call('PUT', `/v1/projects/${b.id}`, { key: a.key, body: { name: 'x' } })).status).toBe(
      403,
    );
    expect((await h.call('GET', `/v1/projects/${b.id}/keys`, { key: a.key })).status).toBe(403);
    expect((await h.call('GET', '/v1/projects', { key: a.key })).status).toBe(403);
    expect(
      (await h.call('POST', '/v1/projects', { key: a.key, body: { name: 'n', type: 'incoming' } })).status,
    ).toBe(403);
    expect((await h.call('DELETE', `/v1/projects/${a.id}`, { key: a.key })).status).toBe(403);
  });

  it('updates a project, merging config members', async () => {
    const p = await h.createProject('incoming');
    const res = await h.call('PUT', `/v1/projects/${p.id}`, {
      key: p.key,
      body: {
        name: 'renamed',
        config: {
          strategy: { type: 'exponential' },
          meta_event: { is_enabled: true, url: 'https://example.com/meta' },
        },
      },
    });
    expect(res.status).toBe(202);
    expect(res.body.data.name).toBe('renamed');
    expect(res.body.data.config.strategy).toEqual({ type: 'exponential', duration: 100, retry_count: 10 });
    expect(res.body.data.config.meta_event.secret).toEqual(expect.any(String));
  });

  it('rejects invalid project bodies with 400 naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ name: 'x' }, 'type'],
      [{ name: 'x', type: 'sideways' }, 'type'],
      [{ name: 'x', type: 'incoming', colour: 'red' }, 'colour'],
      [{ name: 'x', type: 'incoming', config: { strategy: { type: 'cubic' } } }, 'config.strategy.type'],
      [{ name: 5, type: 'incoming' }, 'name'],
      [[], 'body'],
    ];
    for (const [body, field] of cases) {
      const res = await h.call('POST', '/v1/projects', { key: ADMIN_KEY, body });
      expect(res.status).toBe(400);
      expect(res.body.data.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
  });

  it('answers 400 for malformed JSON, 415 for a wrong content type and 413 for a body over the limit', async () => {
    const malformed = await h.call('POST', '/v1/projects', {
      key: ADMIN_KEY,
      rawBody: '{"name": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toMatch(/malformed JSON/);
    const text = await h.call('POST', '/v1/projects', {
      key: ADMIN_KEY,
      rawBody: 'name=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(text.status).toBe(415);
    expect(text.body.data.errors).toEqual([{ field: 'Content-Type', message: 'must be application/json' }]);
    // no Content-Type at all (fetch would add text/plain): the same 415 with data.errors
    const bare = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${h.gateway.url}/api/v1/projects`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-length': 13 },
      });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end('{"name":"x"} ');
    });
    expect(bare.status).toBe(415);
    expect(JSON.parse(bare.body)).toMatchObject({
      status: false,
      message: 'Content-Type must be application/json (got none)',
      data: { errors: [{ field: 'Content-Type' }] },
    });
    const big = await h.call('POST', '/v1/projects', {
      key: ADMIN_KEY,
      rawBody: JSON.stringify({ name: 'x'.repeat(6 * 1024 * 1024), type: 'incoming' }),
      headers: { 'content-type': 'application/json' },
    });
    expect(big.status).toBe(413);
    expect(big.body.data.errors[0].field).toBe('body');
  });

  it('issues, lists and revokes project keys; a revoked key stops working', async () => {
    const p = await h.createProject();
    const issued = await h.call('POST', `/v1/projects/${p.id}/keys`, { key: p.key, body: { name: 'ci' } });
    expect(issued.status).toBe(201);
    const second = issued.body.data.key as string;
    expect((await h.call('GET', `/v1/projects/${p.id}`, { key: second })).status).toBe(200);

    const list = await h.call('GET', `/v1/projects/${p.id}/keys`, { key: ADMIN_KEY });
    expect(list.body.data.content).toHaveLength(2);
    expect(JSON.stringify(list.body.data)).not.toMatch(/secret_hash|hr_/);

    // The gateway's cached entry of the key has expired (it would be answered once more while
    // read again): the revocation must drop it all the same.
    await sleep(CONFIG_TTL_MS + 200);
    const revoked = await h.call('DELETE', `/v1/projects/${p.id}/keys/${issued.body.data.uid}`, {
      key: p.key,
    });
    expect(revoked.status).toBe(200);
    expect((await h.call('GET', `/v1/projects/${p.id}`, { key: second })).status).toBe(401);
    expect(
      (await h.call('DELETE', `/v1/projects/${p.id}/keys/${issued.body.data.uid}`, { key: p.key })).status,
    ).toBe(404);
  });

  it('pages through projects with cursors', async () => {
    for (let i = 0; i < 3; i++) await h.createProject();
    const first = await h.call('GET', '/v1/projects?perPage=2', { key: ADMIN_KEY });
    expect(first.body.data.content).toHaveLength(2);
    expect(first.body.data.pagination.has_next_page).toBe(true);
    const next = await h.call(
      'GET',
      `/v1/projects?perPage=2&next_page_cursor=${first.body.data.pagination.next_page_cursor}`,
      { key: ADMIN_KEY },
    );
    expect(next.body.data.content).toHaveLength(2);
    expect(next.body.data.content[0].uid < first.body.data.content[1].uid).toBe(true);
    expect((await h.call('GET', '/v1/projects?perPage=500', { key: ADMIN_KEY })).status).toBe(400);
  });

  it('deletes a project: it and its keys are gone', async () => {
    const p = await h.createProject();
    expect((await h.call('DELETE', `/v1/projects/${p.id}`, { key: ADMIN_KEY })).status).toBe(200);
    expect((await h.call('GET', `/v1/projects/${p.id}`, { key: ADMIN_KEY })).status).toBe(404);
    expect((await h.call('GET', `/v1/projects/${p.id}`, { key: p.key })).status).toBe(404);
  });

  it('serves unknown API paths as 404 JSON', async () => {
    const res = await h.call('GET', '/v1/nothing-here', { key: ADMIN_KEY, unchecked: true });
    expect(res.status).toBe(404);
    expect(res.body.status).toBe(false);
  });
});
