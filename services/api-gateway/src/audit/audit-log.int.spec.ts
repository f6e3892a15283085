import type { RunningService } from '@hookrail/runtime';
import { startTestService, testConfig, waitFor } from '@hookrail/testkit';
import { definition as metaEvent } from '../../../meta-event/src/service';
import { ADMIN_KEY, GatewayHarness } from '../testing/gateway-harness';
import { seedEndpoint, seedLink } from '../portal/testing/portal-fixtures';
import { launchChromium } from '../portal/testing/portal-browser';
import { openSignedIn } from '../console/testing/console-sign-in';

jest.setTimeout(90_000);

type Record = {
  uid: string;
  project_id: string | null;
  actor: { kind: string; via: string; key_id: string | null; key_name: string | null; role: string | null };
  operation: string;
  resource: { type: string; id: string | null };
  changes: { [field: string]: { before: unknown; after: unknown } } | null;
  fields: string[];
  status: number;
  ip: string;
  user_agent: string;
};

/**
 * The audit log end to end: the gateway publishes a record of each state-changing call once it is
 * answered, a real meta-event service stores it, and the lists read it back.
 */
describe('audit log', () => {
  const h = new GatewayHarness();
  let worker: RunningService | undefined;
  let p: { id: string; key: string };
  let ownerKeyId: string;
  beforeAll(async () => {
    await h.start();
    worker = await startTestService(
      metaEvent(testConfig('meta-event', { HOOKRAIL_KAFKA_TOPIC_PREFIX: h.prefix })),
    );
    p = await h.createProject();
    const keys = await h.call('GET', `/v1/projects/${p.id}/keys`, { key: p.key });
    ownerKeyId = keys.body.data.content[0].uid;
  });
  afterAll(async () => {
    await worker?.stop();
    await h.stop();
  });

  /** The project's records matching `query`, once `count` of them are stored (the consumer's pace). */
  const records = (query: string, count = 1, key = p.key, path = `/v1/projects/${p.id}/audit-log`) =>
    waitFor(
      `${count} audit records for ${query}`,
      async () => {
        const res = await h.call('GET', `${path}?${query}`, { key });
        expect(res.status).toBe(200);
        const content = res.body.data.content as Record[];
        return content.length >= count ? content : undefined;
      },
      { timeoutMs: 40_000 },
    );

  it('records an API update with the key, a diff of the changed fields and secrets redacted', async () => {
    const created = await h.call('POST', `/v1/projects/${p.id}/endpoints`, {
      key: p.key,
      body: { name: 'billing', url: 'https://a.example.com/hook', secret: 'first-secret-0123456789abcd' },
    });
    const endpointId = created.body.data.uid;
    const updated = await h.call('PUT', `/v1/projects/${p.id}/endpoints/${endpointId}`, {
      key: p.key,
      body: { name: 'billing', url: 'https://b.example.com/hook', secret: 'second-secret-0123456789abcd' },
      headers: { 'user-agent': 'audit-test/1' },
    });
    expect(updated.status).toBe(202);
    const [record] = await records(`operation=updateEndpoint&resource=${endpointId}`);
    expect(record).toMatchObject({
      project_id: p.id,
      actor: { kind: 'api_key', via: 'api', key_id: ownerKeyId, key_name: expect.any(String), role: 'owner' },
      resource: { type: 'endpoint', id: endpointId },
      status: 202,
      user_agent: 'audit-test/1',
      fields: expect.arrayContaining(['url', 'secret']),
    });
    expect(record.ip).not.toBe('');
    expect(record.changes!.url).toEqual({
      before: 'https://a.example.com/hook',
      after: 'https://b.example.com/hook',
    });
    expect(record.changes!.name).toBeUndefined(); // unchanged
    expect(JSON.stringify(record)).not.toMatch(/first-secret|second-secret/);

    const [create] = await records(`operation=createEndpoint`);
    expect(create).toMatchObject({
      resource: { type: 'endpoint', id: endpointId },
      changes: null,
      status: 201,
    });
  });

  it('records a refused call with the role that was refused', async () => {
    const viewer = await h.call('POST', `/v1/projects/${p.id}/keys`, {
      key: p.key,
      body: { name: 'dashboard', role: 'viewer' },
    });
    const refused = await h.call('POST', `/v1/projects/${p.id}/sources`, {
      key: viewer.body.data.key,
      body: { name: 'src', type: 'http' },
    });
    expect(refused.status).toBe(403);
    const [record] = await records(`actor=${viewer.body.data.uid}`);
    expect(record).toMatchObject({
      operation: 'createSource',
      status: 403,
      actor: { kind: 'api_key', key_name: 'dashboard', role: 'viewer' },
    });
  });

  it('records console and portal calls with their actor', async () => {
    const signIn = await fetch(`${h.gateway.url}/console/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key: p.key }),
    });
    const session = ((await signIn.json()) as { data: { csrf_header: string; csrf_token: string } }).data;
    const viaConsole = await fetch(`${h.gateway.url}/api/v1/projects/${p.id}/sources`, {
      method: 'POST',
      headers: {
        cookie: signIn.headers.get('set-cookie')!.split(';')[0],
        'content-type': 'application/json',
        [session.csrf_header]: session.csrf_token,
      },
      body: JSON.stringify({ name: 'from-console', type: 'http' }),
    });
    expect(viaConsole.status).toBe(201);
    const [consoleRecord] = await records(`operation=createSource&actor=${ownerKeyId}`);
    expect(consoleRecord.actor).toMatchObject({ kind: 'api_key', via: 'console', key_id: ownerKeyId });

    const endpoint = await seedEndpoint(h.store, p.id as never, 'acme');
    const link = await seedLink(h.store, p.id as never, { owner_id: 'acme', can_manage_endpoint: true });
    const paused = await h.portal('PUT', `/endpoints/${endpoint._id}/pause`, link.token);
    expect(paused.status).toBe(202);
    const [portalRecord] = await records(`actor=${link.doc._id}`);
    expect(portalRecord).toMatchObject({
      operation: 'portalPauseEndpoint',
      actor: { kind: 'portal_link', via: 'portal', portal_link_id: link.doc._id },
      resource: { type: 'endpoint', id: endpoint._id },
    });
  });

  it('filters by actor, operation, resource and time, and pages with cursors', async () => {
    const pager = await h.call('POST', `/v1/projects/${p.id}/keys`, { key: p.key, body: { name: 'pager' } });
    for (const name of ['s1', 's2', 's3'])
      await h.call('POST', `/v1/projects/${p.id}/sources`, {
        key: pager.body.data.key,
        body: { name, type: 'http' },
      });
    const filter = `operation=createSource&actor=${pager.body.data.uid}`;
    const all = await records(filter, 3);
    expect(all).toHaveLength(3);
    const page = (cursor = '') =>
      h.call(
        'GET',
        `/v1/projects/${p.id}/audit-log?${filter}&perPage=2${cursor && `&next_page_cursor=${cursor}`}`,
        {
          key: p.key,
        },
      );
    const first = await page();
    expect(first.body.data.pagination.has_next_page).toBe(true);
    const next = await page(first.body.data.pagination.next_page_cursor);
    expect(next.body.data.pagination.has_next_page).toBe(false);
    const paged = [...first.body.data.content, ...next.body.data.content].map((r: Record) => r.uid);
    expect(paged).toEqual(all.map((r) => r.uid)); // newest first, each once
    const future = new Date(Date.now() + 3600_000).toISOString();
    const none = await h.call('GET', `/v1/projects/${p.id}/audit-log?startDate=${future}`, { key: p.key });
    expect(none.body.data.content).toEqual([]);
    const bySource = await h.call('GET', `/v1/projects/${p.id}/audit-log?resource=source`, { key: p.key });
    expect(bySource.body.data.content.length).toBeGreaterThanOrEqual(3);
    expect(bySource.body.data.content.every((r: Record) => r.resource.type === 'source')).toBe(true);
  });

  it('lists the instance`s own calls for the admin key only', async () => {
    const created = await h.createProject();
    const instance = await records(
      `operation=createProject&resource=${created.id}`,
      1,
      ADMIN_KEY,
      '/v1/audit-log',
    );
    expect(instance[0]).toMatchObject({
      project_id: null,
      actor: { kind: 'admin_key' },
      resource: { type: 'project' },
    });
    const refused = await h.call('GET', '/v1/audit-log', { key: p.key });
    expect(refused.status).toBe(403);
  });

  it('lists the records on the console`s audit log page', async () => {
    await records('operation=updateEndpoint');
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      page.setDefaultTimeout(15_000);
      await openSignedIn(page, `${h.gateway.url}/console/projects/${p.id}/audit-log`, p.key);
      const row = page.getByRole('row').filter({ hasText: 'updateEndpoint' });
      await row.first().waitFor();
      const text = await row.first().innerText();
      expect(text).toContain('via api');
      expect(text).toContain('https://b.example.com/hook');
      expect(text).not.toContain('second-secret');
    } finally {
      await browser.close();
    }
  });

  it('offers no way to change or delete a record', async () => {
    const [some] = await records('');
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const list = await h.call(method, `/v1/projects/${p.id}/audit-log`, {
        key: p.key,
        body: {},
        unchecked: true,
      });
      expect([method, list.status]).toEqual([method, 405]);
      const one = await h.call(method, `/v1/projects/${p.id}/audit-log/${some.uid}`, {
        key: p.key,
        body: {},
        unchecked: true,
      });
      expect([method, one.status]).toEqual([method, 404]);
    }
    const still = await records(`resource=${some.resource.id ?? ''}`);
    expect(still.map((r) => r.uid)).toContain(some.uid);
  });
});
