import type { RunningService } from '@hookrail/runtime';
import { makeProject, makeSource, startTestService, testConfig } from '@hookrail/testkit';
import { definition as ingest } from '../../../ingest/src/service';
import { seedLink } from '../portal/testing/portal-fixtures';
import { ADMIN_KEY, GatewayHarness } from '../testing/gateway-harness';

jest.setTimeout(60_000);

const LIMITS = {
  HOOKRAIL_RATE_LIMIT_WINDOW_MS: '60000',
  HOOKRAIL_RATE_LIMIT_API_KEY: '5',
  HOOKRAIL_RATE_LIMIT_PROJECT: '8',
  HOOKRAIL_RATE_LIMIT_PORTAL_LINK: '3',
  HOOKRAIL_RATE_LIMIT_SOURCE: '3',
};

/** Per API key, per project, per portal link and per ingest source: 429 with Retry-After past the limit. */
describe('rate limits', () => {
  const h = new GatewayHarness();
  let ingestService: RunningService;
  beforeAll(async () => {
    await h.start(LIMITS);
    ingestService = await startTestService(
      ingest(testConfig('ingest', { ...LIMITS, HOOKRAIL_KAFKA_TOPIC_PREFIX: h.prefix })),
    );
  });
  afterAll(async () => {
    await ingestService?.stop();
    await h.stop();
  });

  function expectLimited(res: { status: number; headers: Headers; body: unknown }, what: string) {
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(res.headers.get('ratelimit-remaining')).toBe('0');
    expect(res.body).toMatchObject({ status: false, message: expect.stringContaining(`for this ${what}`) });
  }

  it('limits each API key, then each project across its keys, and leaves other projects alone', async () => {
    const p = await h.createProject(); // admin: 1
    const other = await h.createProject(); // admin: 2
    const second = await h.call('POST', `/v1/projects/${p.id}/keys`, { key: ADMIN_KEY, body: {} }); // admin 3, project 1
    expect(second.status).toBe(201);

    for (let i = 0; i < 5; i++) {
      const res = await h.call('GET', `/v1/projects/${p.id}/endpoints`, { key: p.key }); // project 2..6
      expect(res.status).toBe(200);
      // The key's limit is met first, so its headers are the ones sent.
      expect(res.headers.get('ratelimit-limit')).toBe('5');
      expect(res.headers.get('ratelimit-remaining')).toBe(String(4 - i));
    }
    expectLimited(await h.call('GET', `/v1/projects/${p.id}/endpoints`, { key: p.key }), 'API key');

    // The second key has its own budget, but the project's (8) runs out after two more.
    for (let i = 0; i < 2; i++)
      expect(
        (await h.call('GET', `/v1/projects/${p.id}/endpoints`, { key: second.body.data.key })).status,
      ).toBe(200);
    expectLimited(
      await h.call('GET', `/v1/projects/${p.id}/endpoints`, { key: second.body.data.key }),
      'project',
    );

    // The events API is limited the same way (it is the same router).
    const events = await h.call('POST', `/v1/projects/${p.id}/events/broadcast`, {
      key: second.body.data.key,
      body: { event_type: 't', data: {} },
    });
    expectLimited(events, 'project');

    expect((await h.call('GET', `/v1/projects/${other.id}/endpoints`, { key: other.key })).status).toBe(200);
  });

  it('limits each portal link', async () => {
    const p = await h.createProject();
    const { token } = await seedLink(h.store, p.id, { owner_id: 'acme' });
    const { token: otherToken } = await seedLink(h.store, p.id, { owner_id: 'globex' });
    const get = async (t: string) => {
      const res = await fetch(`${h.gateway.url}/portal-api/link`, {
        headers: { authorization: `Bearer ${t}` },
      });
      return { status: res.status, headers: res.headers, body: await res.json() };
    };
    for (let i = 0; i < 3; i++) expect((await get(token)).status).toBe(200);
    expectLimited(await get(token), 'portal link');
    // The same link through ?token= counts against the same budget.
    const viaQuery = await fetch(`${h.gateway.url}/portal-api/link?token=${token}`);
    expect(viaQuery.status).toBe(429);
    expect((await get(otherToken)).status).toBe(200);
  });

  it('limits ingest per source', async () => {
    const projectId = await makeProject(h.store);
    const [a, b] = [await makeSource(h.store, projectId), await makeSource(h.store, projectId)];
    const post = async (mask: string) => {
      const res = await fetch(`${ingestService.url}/ingest/${mask}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"a":1}',
      });
      return { status: res.status, headers: res.headers, body: await res.json() };
    };
    for (let i = 0; i < 3; i++) expect((await post(a.mask_id)).status).toBe(200);
    expectLimited(await post(a.mask_id), 'source');
    expect((await post(b.mask_id)).status).toBe(200);
  });
});
