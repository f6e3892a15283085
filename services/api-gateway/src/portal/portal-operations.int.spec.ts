import { newId, type ProjectId } from '@hookrail/domain';
import type { DeliveryMessage } from '@hookrail/bus';
import { makeDelivery, makeEvent, waitFor } from '@hookrail/testkit';
import { GatewayHarness } from '../testing/gateway-harness';
import { seedDelivery, seedEndpoint, seedLink } from './testing/portal-fixtures';

/**
 * The portal's retry of a delivery still retrying, replay of an event (managing links, to the
 * link's endpoints only), the event types seen so far and a connection failure's error text in
 * the list, through the portal API on the real gateway and store.
 */
describe('portal API: retry now, replay, event types, connection errors', () => {
  const h = new GatewayHarness();
  let sent: DeliveryMessage[];
  beforeAll(async () => {
    await h.start();
    sent = await h.collect('deliveries');
  });
  afterAll(() => h.stop());

  const portal = (method: string, path: string, token: string) => h.portal(method, path, token);

  it('retries a delivery still in Retry now, on any link, only for the link endpoints', async () => {
    const p = await h.createProject();
    const acme = await seedEndpoint(h.store, p.id, 'acme');
    const globex = await seedEndpoint(h.store, p.id, 'globex');
    const { token } = await seedLink(h.store, p.id, { owner_id: 'acme' });
    const retrying = await seedDelivery(h.store, p.id, acme._id, 'Retry');
    const theirs = await seedDelivery(h.store, p.id, globex._id, 'Retry');
    const scheduled = await seedDelivery(h.store, p.id, acme._id, 'Scheduled');

    const res = await portal('PUT', `/eventdeliveries/${retrying.delivery._id}/resend`, token);
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('Scheduled');
    expect((await h.store.deliveries.findById(p.id, retrying.delivery._id))?.status).toBe('Scheduled');
    await waitFor('the resend message', () =>
      sent.some((m) => m.delivery_id === retrying.delivery._id && m.reason === 'resend'),
    );

    expect((await portal('PUT', `/eventdeliveries/${theirs.delivery._id}/resend`, token)).status).toBe(404);
    expect((await h.store.deliveries.findById(p.id, theirs.delivery._id))?.status).toBe('Retry');
    const busy = await portal('PUT', `/eventdeliveries/${scheduled.delivery._id}/resend`, token);
    expect(busy.status).toBe(409);
    expect(busy.body.message).toMatch(/status Scheduled/);
  });

  it('replays an event to the link endpoints only, for managing links', async () => {
    const p = await h.createProject();
    const acme = await seedEndpoint(h.store, p.id, 'acme');
    const globex = await seedEndpoint(h.store, p.id, 'globex');
    const event = await makeEvent(h.store, p.id, { endpoints: [acme._id, globex._id] });
    const deliveryTo = (endpointId: string) =>
      makeDelivery(h.store, p.id, {
        event_id: event._id,
        endpoint_id: endpointId,
        subscription_id: newId(),
        status: 'Failure',
      });
    await deliveryTo(acme._id);
    await deliveryTo(globex._id);
    const manage = await seedLink(h.store, p.id, { owner_id: 'acme', can_manage_endpoint: true });
    const view = await seedLink(h.store, p.id, { owner_id: 'acme' });
    const other = await seedLink(h.store, p.id, { owner_id: 'initech', can_manage_endpoint: true });

    expect((await portal('PUT', `/events/${event._id}/replay`, view.token)).status).toBe(403);
    expect((await portal('PUT', `/events/${event._id}/replay`, other.token)).status).toBe(404);

    const res = await portal('PUT', `/events/${event._id}/replay`, manage.token);
    expect(res.status).toBe(200);
    expect(res.body.data.deliveries).toHaveLength(1);
    expect(res.body.data.deliveries[0].endpoint_id).toBe(acme._id);
    const all = await h.store.deliveries.listByEvents(p.id, [event._id]);
    expect(all.filter((d) => d.endpoint_id === acme._id)).toHaveLength(2);
    expect(all.filter((d) => d.endpoint_id === globex._id)).toHaveLength(1); // not replayed
    const copy = res.body.data.deliveries[0].uid as string;
    await waitFor('the replayed delivery published', () => sent.some((m) => m.delivery_id === copy));
  });

  it('lists the event types sent to the link endpoints, each once, and no other customer’s', async () => {
    const p = await h.createProject();
    const a1 = await seedEndpoint(h.store, p.id, 'acme');
    const a2 = await seedEndpoint(h.store, p.id, 'acme');
    const globex = await seedEndpoint(h.store, p.id, 'globex');
    const { token } = await seedLink(h.store, p.id, { owner_id: 'acme' });
    expect((await portal('GET', '/event-types', token)).body.data).toEqual([]);

    const at = (s: number) => new Date(Date.UTC(2026, 10, 23, 12, 0, s));
    const seen = (endpointId: string, eventType: string, when: Date) => ({
      projectId: p.id as ProjectId,
      endpointId,
      eventType,
      at: when,
    });
    await h.store.eventTypes.recordSeen([
      seen(a1._id, 'invoice.paid', at(1)),
      seen(a2._id, 'invoice.paid', at(5)),
      seen(a2._id, 'customer.created', at(2)),
      seen(globex._id, 'secret.globex', at(3)),
    ]);
    await h.store.eventTypes.recordSeen([seen(a1._id, 'invoice.paid', at(0))]); // older: kept the latest

    const res = await portal('GET', '/event-types', token);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      { event_type: 'customer.created', last_seen_at: at(2).toISOString() },
      { event_type: 'invoice.paid', last_seen_at: at(5).toISOString() },
    ]);
  });

  it('names a connection failure in the delivery list', async () => {
    const p = await h.createProject();
    const acme = await seedEndpoint(h.store, p.id, 'acme');
    const { token } = await seedLink(h.store, p.id, { owner_id: 'acme' });
    const event = await makeEvent(h.store, p.id, { endpoints: [acme._id] });
    const refused = await makeDelivery(h.store, p.id, {
      event_id: event._id,
      endpoint_id: acme._id,
      status: 'Failure',
      attempts_made: 1,
      attempts: [
        {
          uid: newId(),
          url: 'https://acme.example/hook',
          method: 'POST',
          request_headers_json: '{}',
          response_headers_json: '{}',
          http_status: null,
          response_data: '',
          error: 'connect ECONNREFUSED 10.0.0.7:443',
          latency_ms: 3,
          created_at: new Date(),
        },
      ],
    });
    const res = await portal('GET', '/eventdeliveries', token);
    const row = res.body.data.content.find((d: { uid: string }) => d.uid === refused._id);
    expect(row).toMatchObject({ last_http_status: null, last_error: 'connect ECONNREFUSED 10.0.0.7:443' });
  });
});
