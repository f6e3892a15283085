import { makeDelivery, makeEvent } from '@hookrail/testkit';
import { GatewayHarness } from '../testing/gateway-harness';
import { seedEndpoint, seedLink } from './testing/portal-fixtures';

/**
 * The portal's message log filters (time window, payload search) and the body each delivery sent,
 * read back from what is stored (issue 33, items 10 and 11); the portal's event-type edit.
 */
describe('portal message log: time and payload filters, request bodies, event types', () => {
  const h = new GatewayHarness();
  beforeAll(() => h.start());
  afterAll(() => h.stop());

  async function seed() {
    const p = await h.createProject();
    const billing = await seedEndpoint(h.store, p.id, 'acme', 'billing');
    const event = (raw: string) =>
      makeEvent(h.store, p.id, {
        raw,
        endpoints: [billing._id],
        target: { mode: 'single', endpoint_id: billing._id },
      });
    const paid = await event('{"invoice":"INV-7","state":"paid"}');
    const failed = await event('{"invoice":"INV-8","state":"failed"}');
    const big = await event(JSON.stringify({ blob: 'é'.repeat(40_000) }));
    const plain = await makeDelivery(h.store, p.id, { event_id: paid._id, endpoint_id: billing._id });
    // a subscription function changed what was sent: its output is the body
    const transformed = await makeDelivery(h.store, p.id, {
      event_id: failed._id,
      endpoint_id: billing._id,
      payload: '{"renamed":"INV-8","by":"function"}',
    });
    const large = await makeDelivery(h.store, p.id, { event_id: big._id, endpoint_id: billing._id });
    const { token } = await seedLink(h.store, p.id, { owner_id: 'acme', can_manage_endpoint: true });
    return { p, billing, paid, plain, transformed, large, token };
  }

  const ids = (res: { body: { data: { content: { uid: string }[] } } }) =>
    res.body.data.content.map((d) => d.uid).sort();

  it('filters deliveries and events by time and by words of the payload sent', async () => {
    const s = await seed();
    const list = (q: string) => h.portal('GET', `/eventdeliveries?${q}`, s.token);
    expect(ids(await list('query=inv-7%20PAID'))).toEqual([s.plain._id]);
    // the transformed body is searched, not the event's
    expect(ids(await list('query=function'))).toEqual([s.transformed._id]);
    expect(ids(await list('query=nowhere'))).toEqual([]);
    const hourAgo = new Date(Date.now() - 3600_000).toISOString();
    expect(ids(await list(`startDate=${hourAgo}`))).toHaveLength(3);
    expect(ids(await list('endDate=2020-01-01T00:00:00Z'))).toEqual([]);
    expect(ids(await list(`startDate=${hourAgo}&query=INV-7`))).toEqual([s.plain._id]);

    const events = await h.portal('GET', `/events?query=INV-8&startDate=${hourAgo}`, s.token);
    expect(events.status).toBe(200);
    expect(events.body.data.content.map((e: { raw: string }) => e.raw)).toEqual([
      '{"invoice":"INV-8","state":"failed"}',
    ]);
  });

  it('answers 400 naming the field to a bad date or a search too long, never 500', async () => {
    const s = await seed();
    for (const path of ['/eventdeliveries', '/events']) {
      const bad = await h.portal('GET', `${path}?startDate=yesterday`, s.token);
      expect(bad.status).toBe(400);
      expect(JSON.stringify(bad.body)).toContain('startDate');
      const huge = await h.portal('GET', `${path}?query=${'x'.repeat(201)}`, s.token);
      expect(huge.status).toBe(400);
      expect(JSON.stringify(huge.body)).toContain('query');
    }
  });

  it('shows the body a delivery sent, in the management API and the portal, capped at 64 KiB', async () => {
    const s = await seed();
    const mgmt = (id: string) =>
      h.call('GET', `/v1/projects/${s.p.id}/eventdeliveries/${id}`, { key: s.p.key });
    const plain = await mgmt(s.plain._id);
    expect(plain.status).toBe(200);
    expect(plain.body.data.request_body).toBe('{"invoice":"INV-7","state":"paid"}');
    expect(plain.body.data.request_body_truncated).toBe(false);
    expect((await mgmt(s.transformed._id)).body.data.request_body).toBe(
      '{"renamed":"INV-8","by":"function"}',
    );
    const large = (await mgmt(s.large._id)).body.data;
    expect(large.request_body_truncated).toBe(true);
    expect(Buffer.byteLength(large.request_body, 'utf8')).toBeLessThanOrEqual(64 * 1024);
    expect(large.request_body).not.toContain('\uFFFD');
    // lists do not carry it
    const listed = await h.call('GET', `/v1/projects/${s.p.id}/eventdeliveries`, { key: s.p.key });
    expect(listed.body.data.content[0]).not.toHaveProperty('request_body');

    const portal = await h.portal('GET', `/eventdeliveries/${s.transformed._id}`, s.token);
    expect(portal.status).toBe(200);
    expect(portal.body.data.request_body).toBe('{"renamed":"INV-8","by":"function"}');
    expect(portal.body.data.request_body_truncated).toBe(false);
  });

  it('sets the event types an endpoint receives from the portal edit', async () => {
    const s = await seed();
    const created = await h.portal('POST', '/endpoints', s.token, {
      name: 'invoices',
      url: 'https://acme.example/invoices',
      event_types: ['invoice.paid'],
    });
    expect(created.status).toBe(201);
    const id = created.body.data.uid as string;
    const edit = await h.portal('PUT', `/endpoints/${id}`, s.token, {
      name: 'invoices-v2',
      event_types: ['invoice.paid', 'invoice.failed'],
    });
    expect(edit.status).toBe(202);
    expect(edit.body.data.name).toBe('invoices-v2');
    expect(edit.body.data.event_types).toEqual(['invoice.paid', 'invoice.failed']);
    // an endpoint without a subscription gets one
    const edited = await h.portal('PUT', `/endpoints/${s.billing._id}`, s.token, { event_types: ['*'] });
    expect(edited.status).toBe(202);
    expect(edited.body.data.event_types).toEqual(['*']);
    const blank = await h.portal('PUT', `/endpoints/${id}`, s.token, { event_types: [' '] });
    expect(blank.status).toBe(400);
  });
});
