import { randomToken, type ProjectId } from '@hookrail/domain';
import type { DeliveryDoc } from '@hookrail/store';
import { waitFor } from '@hookrail/testkit';
import { GatewayHarness } from '../testing/gateway-harness';
import { seedDelivery, seedEndpoint, seedLink, type LinkOptions } from './testing/portal-fixtures';

describe('portal API: a link holder sees and manages exactly the link endpoints', () => {
  const h = new GatewayHarness();
  beforeAll(() => h.start());
  afterAll(() => h.stop());

  const portal = (method: string, path: string, token: string | null, body?: unknown) =>
    h.portal(method, path, token, body);

  const endpoint = (projectId: ProjectId, owner: string | null) => seedEndpoint(h.store, projectId, owner);
  const link = (projectId: ProjectId, opts: LinkOptions = {}) => seedLink(h.store, projectId, opts);
  const eventWithDelivery = (projectId: ProjectId, endpointId: string, status: DeliveryDoc['status']) =>
    seedDelivery(h.store, projectId, endpointId, status);

  it('answers 401 without a token, with an unknown token and with a malformed header', async () => {
    expect((await portal('GET', '/endpoints', null)).status).toBe(401);
    expect((await portal('GET', '/endpoints', randomToken(32))).status).toBe(401);
    const res = await fetch(`${h.gateway.url}/portal-api/endpoints`, {
      headers: { authorization: 'Basic abc' },
    });
    expect(res.status).toBe(401);
  });

  it('shows the owner endpoints (looked up per request) plus the deprecated endpoint ids, nothing else', async () => {
    const p = await h.createProject();
    const owned = await endpoint(p.id, 'acme');
    const listed = await endpoint(p.id, null);
    const other = await endpoint(p.id, 'globex');
    const { token } = await link(p.id, { owner_id: 'acme', endpoints: [listed._id] });

    const first = await portal('GET', '/endpoints', token);
    expect(first.status).toBe(200);
    expect(first.body.data.map((e: { uid: string }) => e.uid).sort()).toEqual([owned._id, listed._id].sort());

    // A new endpoint with the owner id appears; one moved to another owner disappears.
    const later = await endpoint(p.id, 'acme');
    await h.store.endpoints.update(p.id, owned._id, { owner_id: 'globex' });
    const second = await portal('GET', '/endpoints', token);
    expect(second.body.data.map((e: { uid: string }) => e.uid).sort()).toEqual(
      [later._id, listed._id].sort(),
    );
    expect((await portal('GET', `/endpoints/${other._id}`, token)).status).toBe(404);
    expect((await portal('GET', '/link', token)).body.data).toMatchObject({
      endpoint_count: 2,
      can_manage_endpoint: false,
    });
  });

  it("answers 404 for another link's endpoint, events and deliveries, in its own and in another project", async () => {
    const p = await h.createProject();
    const q = await h.createProject();
    const mine = await endpoint(p.id, 'acme');
    const theirs = await endpoint(p.id, 'globex');
    const foreign = await endpoint(q.id, 'acme');
    const { token } = await link(p.id, { owner_id: 'acme' });
    const own = await eventWithDelivery(p.id, mine._id, 'Failure');
    const hidden = await eventWithDelivery(p.id, theirs._id, 'Failure');
    const elsewhere = await eventWithDelivery(q.id, foreign._id, 'Failure');

    expect((await portal('GET', `/endpoints/${foreign._id}`, token)).status).toBe(404);
    for (const x of [hidden, elsewhere]) {
      expect((await portal('GET', `/events/${x.eventId}`, token)).status).toBe(404);
      expect((await portal('GET', `/eventdeliveries/${x.delivery._id}`, token)).status).toBe(404);
      expect((await portal('PUT', `/eventdeliveries/${x.delivery._id}/resend`, token)).status).toBe(404);
    }
    expect((await portal('GET', `/eventdeliveries?endpointId=${theirs._id}`, token)).status).toBe(404);
    expect((await portal('GET', `/events?endpointId=${theirs._id}`, token)).status).toBe(404);

    const deliveries = await portal('GET', '/eventdeliveries', token);
    expect(deliveries.body.data.content.map((d: { uid: string }) => d.uid)).toEqual([own.delivery._id]);
    const events = await portal('GET', '/events', token);
    expect(events.body.data.content.map((e: { uid: string }) => e.uid)).toEqual([own.eventId]);
    const detail = await portal('GET', `/eventdeliveries/${own.delivery._id}`, token);
    expect(detail.body.data.attempts[0]).toMatchObject({
      http_status: 500,
      response_data: 'boom',
      response_http_header: { 'x-r': '1' },
    });
  });

  it('resends a failed delivery of the link (Scheduled again) and refuses one that succeeded with 409', async () => {
    const p = await h.createProject();
    const mine = await endpoint(p.id, 'acme');
    const { token } = await link(p.id, { owner_id: 'acme' });
    const failed = await eventWithDelivery(p.id, mine._id, 'Failure');
    const done = await eventWithDelivery(p.id, mine._id, 'Success');
    const res = await portal('PUT', `/eventdeliveries/${failed.delivery._id}/resend`, token);
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('Scheduled');
    expect((await h.store.deliveries.findById(p.id, failed.delivery._id))?.status).toBe('Scheduled');
    expect((await portal('PUT', `/eventdeliveries/${done.delivery._id}/resend`, token)).status).toBe(409);
    // Force resend needs a managing link, and never sends a delivered one again: the end customer
    // has it (the provider can, through the management API or the console).
    const forced = `/eventdeliveries/${done.delivery._id}/forceresend`;
    expect((await portal('PUT', forced, token)).status).toBe(403);
    const managing = await link(p.id, { owner_id: 'acme', can_manage_endpoint: true });
    const res2 = await portal('PUT', forced, managing.token);
    expect(res2.status).toBe(409);
    expect(res2.body.message).toMatch(/succeeded: the portal retries only failed or discarded deliveries/);
    expect((await h.store.deliveries.findById(p.id, done.delivery._id))?.status).toBe('Success');
  });

  it('sends a test event to an endpoint of a managing link through the events topic; 403 read-only, 404 foreign', async () => {
    const events = await h.collect('events');
    const p = await h.createProject();
    const mine = await endpoint(p.id, 'acme');
    const theirs = await endpoint(p.id, 'globex');
    const managing = await link(p.id, { owner_id: 'acme', can_manage_endpoint: true });
    const readOnly = await link(p.id, { owner_id: 'acme' });

    const res = await portal('POST', `/endpoints/${mine._id}/test-event`, managing.token, {
      event_type: 'order.created',
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      event_type: 'order.created',
      target: { mode: 'single', endpoint_id: mine._id },
    });
    const sent = await waitFor('the test event on the events topic', () =>
      events.find((e) => e.event_id === res.body.data.uid),
    );
    expect(sent).toMatchObject({ project_id: p.id, event_type: 'order.created' });
    expect(JSON.parse(sent.raw)).toMatchObject({ message: 'Test event from the webhooks portal' });

    expect((await portal('POST', `/endpoints/${mine._id}/test-event`, readOnly.token, {})).status).toBe(403);
    expect((await portal('POST', `/endpoints/${theirs._id}/test-event`, managing.token, {})).status).toBe(
      404,
    );
    const bad = await portal('POST', `/endpoints/${mine._id}/test-event`, managing.token, { event_type: '' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('event_type');
    for (const body of [
      { data: [1, 2] },
      { event_type: 'a.b', data: 'text' },
      { event_type: 'a', extra: 1 },
    ]) {
      const refused = await portal('POST', `/endpoints/${mine._id}/test-event`, managing.token, body);
      expect(refused.status).toBe(400);
    }
  });

  it('answers 403 to every management call on a link without can_manage_endpoint', async () => {
    const p = await h.createProject();
    const mine = await endpoint(p.id, 'acme');
    const { token } = await link(p.id, { owner_id: 'acme' });
    const calls: [string, string, unknown?][] = [
      ['POST', '/endpoints', { name: 'x', url: 'https://example.com/x' }],
      ['PUT', `/endpoints/${mine._id}`, { name: 'y' }],
      ['PUT', `/endpoints/${mine._id}/pause`],
      ['PUT', `/endpoints/${mine._id}/activate`],
      ['PUT', `/endpoints/${mine._id}/expire_secret`, { expiration: 0 }],
      ['DELETE', `/endpoints/${mine._id}`],
    ];
    for (const [method, path, body] of calls)
      expect((await portal(method, path, token, body)).status).toBe(403);
    expect((await h.store.endpoints.findById(p.id, mine._id))?.status).toBe('active');
  });

  it('lets a managing link create (owned by the link), update, pause, roll the secret and delete its endpoints', async () => {
    const p = await h.createProject();
    const { token } = await link(p.id, { owner_id: 'acme', can_manage_endpoint: true });
    const created = await portal('POST', '/endpoints', token, {
      name: 'billing',
      url: 'https://example.com/b',
    });
    expect(created.status).toBe(201);
    const id = created.body.data.uid;
    expect(created.body.data.owner_id).toBe('acme');
    expect(created.body.data.secrets).toHaveLength(1);

    expect((await portal('PUT', `/endpoints/${id}`, token, { name: 'billing-2' })).body.data.name).toBe(
      'billing-2',
    );
    expect((await portal('PUT', `/endpoints/${id}/pause`, token)).body.data.status).toBe('paused');
    expect((await portal('PUT', `/endpoints/${id}/activate`, token)).body.data.status).toBe('active');
    const rolled = await portal('PUT', `/endpoints/${id}/expire_secret`, token, { expiration: 60 });
    expect(rolled.status).toBe(200);
    expect(rolled.body.data.secrets).toHaveLength(2);
    expect(rolled.body.data.secrets[0].expires_at).not.toBeNull();

    // Bad input is a 400 naming the field; moving an endpoint to another owner is refused.
    const bad = await portal('POST', '/endpoints', token, { name: 'n', url: 'ftp://x' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('url');
    // a cli endpoint belongs to a developer's `hookrail listen`, not to a portal holder
    const cli = await portal('POST', '/endpoints', token, { name: 'c', type: 'cli' });
    expect(cli.status).toBe(400);
    expect(cli.body.data.errors).toEqual([
      { field: 'type', message: 'cli is not allowed through the portal (hookrail listen makes them)' },
    ]);
    expect((await portal('PUT', `/endpoints/${id}`, token, { type: 'cli' })).status).toBe(400);
    const escape = await portal('PUT', `/endpoints/${id}`, token, { owner_id: 'globex' });
    expect(escape.status).toBe(400);
    expect(escape.body.message).toContain('owner_id');
    // nor can the link's holder take it out of the link by emptying the owner
    const orphan = await portal('PUT', `/endpoints/${id}`, token, { clear: ['owner_id'] });
    expect(orphan.status).toBe(400);
    expect(orphan.body.data.errors[0].field).toBe('owner_id');
    expect((await h.store.endpoints.findById(p.id, id))?.owner_id).toBe('acme');
    const other = await endpoint(p.id, 'globex');
    expect((await portal('DELETE', `/endpoints/${other._id}`, token)).status).toBe(404);
    expect(await h.store.endpoints.findById(p.id, other._id)).not.toBeNull();

    expect((await portal('DELETE', `/endpoints/${id}`, token)).status).toBe(200);
    expect((await portal('GET', `/endpoints/${id}`, token)).status).toBe(404);
  });

  it('subscribes a portal-created endpoint to every event type, or to the types picked, and names a bad event_types', async () => {
    const p = await h.createProject();
    const { token } = await link(p.id, { owner_id: 'acme', can_manage_endpoint: true });
    const subscriptionOf = async (endpointId: string) => {
      const subs = await h.store.subscriptions.listByEndpoint(p.id, endpointId);
      expect(subs).toHaveLength(1);
      return subs[0];
    };
    const all = await portal('POST', '/endpoints', token, { name: 'all', url: 'https://example.com/a' });
    expect(all.status).toBe(201);
    expect((await subscriptionOf(all.body.data.uid)).filter_config.event_types).toEqual(['*']);
    expect(all.body.data.event_types).toEqual(['*']);
    const picked = await portal('POST', '/endpoints', token, {
      name: 'invoices',
      url: 'https://example.com/i',
      event_types: ['invoice.paid', 'invoice.voided'],
    });
    expect(picked.status).toBe(201);
    expect((await subscriptionOf(picked.body.data.uid)).filter_config.event_types).toEqual([
      'invoice.paid',
      'invoice.voided',
    ]);
    const listed = (await portal('GET', '/endpoints', token)).body.data;
    expect(listed.find((e: { uid: string }) => e.uid === picked.body.data.uid).event_types).toEqual([
      'invoice.paid',
      'invoice.voided',
    ]);

    const before = (await h.store.endpoints.listByOwner(p.id, 'acme')).length;
    for (const [eventTypes, field] of [
      [[], 'event_types'],
      ['invoice.paid', 'event_types'],
      [['ok', ''], 'event_types.1'],
      [['  '], 'event_types.0'],
      [[42], 'event_types.0'],
    ] as const) {
      const bad = await portal('POST', '/endpoints', token, {
        name: 'bad',
        url: 'https://example.com/x',
        event_types: eventTypes,
      });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toContain(field);
      expect(bad.body.data.errors[0].field).toBe(field);
    }
    expect(await h.store.endpoints.listByOwner(p.id, 'acme')).toHaveLength(before);
  });

  it('answers 403 on a secret roll through a read-only link, which still sees the current secrets', async () => {
    const p = await h.createProject();
    const manage = await link(p.id, { owner_id: 'acme', can_manage_endpoint: true });
    const { token } = await link(p.id, { owner_id: 'acme' });
    const created = await portal('POST', '/endpoints', manage.token, {
      name: 'orders',
      url: 'https://example.com/o',
    });
    const id = created.body.data.uid;
    const seen = await portal('GET', `/endpoints/${id}`, token);
    expect(seen.body.data.secrets.map((s: { value: string }) => s.value)).toEqual(
      created.body.data.secrets.map((s: { value: string }) => s.value),
    );
    const roll = await portal('PUT', `/endpoints/${id}/expire_secret`, token, { expiration: 3600 });
    expect(roll.status).toBe(403);
    expect(roll.body.message).toContain('cannot manage endpoints');
    expect((await h.store.endpoints.findById(p.id, id))?.secrets).toHaveLength(1);

    // A roll that expires the old secret at once leaves only the new one current.
    const now = await portal('PUT', `/endpoints/${id}/expire_secret`, manage.token, { expiration: 0 });
    expect(now.body.data.secrets).toHaveLength(1);
    expect(now.body.data.secrets[0].value).not.toBe(created.body.data.secrets[0].value);
  });

  it('opens a refresh_token link only with its unexpired auth key, and a revoked link not at all', async () => {
    const p = await h.createProject();
    await endpoint(p.id, 'acme');
    const { doc, token, authKey } = await link(p.id, { owner_id: 'acme', refresh: true });
    expect((await portal('GET', '/endpoints', authKey)).status).toBe(200);
    expect((await portal('GET', `/endpoints?token=${authKey}`, null)).status).toBe(200);
    expect((await portal('GET', '/endpoints', token)).status).toBe(401);
    await h.store.portalLinks.update(p.id, doc._id, { auth_key_expires_at: new Date(Date.now() - 1000) });
    const expired = await portal('GET', '/endpoints', authKey);
    expect(expired.status).toBe(401);
    expect(expired.body.message).toContain('expired');

    const s = await link(p.id, { owner_id: 'acme' });
    expect((await portal('GET', '/endpoints', s.token)).status).toBe(200);
    await h.store.portalLinks.softDelete(p.id, s.doc._id);
    expect((await portal('GET', '/endpoints', s.token)).status).toBe(401);
  });

  it('serves the portal page and its script with a strict content security policy', async () => {
    const page = await fetch(`${h.gateway.url}/portal?token=abc`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    const script = /<script src="(\/portal\/assets\/portal-[A-Z0-9]+\.js)">/.exec(await page.text());
    expect(script).not.toBeNull();
    const js = await fetch(`${h.gateway.url}${script![1]}`);
    expect(js.headers.get('content-type')).toContain('javascript');
  });
});
