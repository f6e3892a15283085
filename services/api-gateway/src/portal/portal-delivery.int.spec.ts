import { createHmac } from 'node:crypto';
import type { RunningService } from '@hookrail/runtime';
import { startReceiver, startTestService, testConfig, waitFor, type Receiver } from '@hookrail/testkit';
import { definition as dispatcher } from '../../../dispatcher/src/service';
import { GatewayHarness } from '../testing/gateway-harness';
import { seedLink } from './testing/portal-fixtures';

jest.setTimeout(90_000);

/**
 * A customer adds endpoints in the portal and receives the owner's fanout events at once: the
 * gateway's events API, the real dispatcher on the same topics and a real HTTP receiver.
 */
describe('portal-created endpoints receive events end to end', () => {
  const h = new GatewayHarness();
  let dp: RunningService;
  let receiver: Receiver;

  beforeAll(async () => {
    await h.start();
    dp = await startTestService(
      dispatcher(testConfig('dispatcher', { HOOKRAIL_KAFKA_TOPIC_PREFIX: h.prefix })),
    );
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await dp?.stop();
    await h.stop();
  });

  async function portal(token: string, method: string, path: string, body?: unknown) {
    const res = await h.portal(method, path, token, body);
    if (res.status >= 400)
      throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body.data;
  }

  const requestsTo = (path: string) => receiver.requests.filter((r) => r.path === path);

  it('delivers a fanout to the link owner at a portal-created endpoint, signed with the secret the portal shows, filtered by the picked event types', async () => {
    const p = await h.createProject();
    const { token } = await seedLink(h.store, p.id, { owner_id: 'acme', can_manage_endpoint: true });
    const all = await portal(token, 'POST', '/endpoints', { name: 'all', url: `${receiver.url}/all` });
    const invoices = await portal(token, 'POST', '/endpoints', {
      name: 'invoices',
      url: `${receiver.url}/invoices`,
      event_types: ['invoice.paid'],
    });

    const fanout = async (eventType: string) => {
      const res = await h.call('POST', `/v1/projects/${p.id}/events/fanout`, {
        key: p.key,
        body: { owner_id: 'acme', event_type: eventType, data: { type: eventType } },
      });
      expect(res.status).toBe(201);
      return res.body.data.uid as string;
    };
    const paid = await fanout('invoice.paid');
    await waitFor('invoice.paid at both endpoints', () =>
      requestsTo('/all').length === 1 && requestsTo('/invoices').length === 1 ? true : undefined,
    );
    for (const [endpoint, path] of [
      [all, '/all'],
      [invoices, '/invoices'],
    ] as const) {
      const [req] = requestsTo(path);
      expect(req.headers['x-hookrail-event-id']).toBe(paid);
      // The customer verifies with what the portal shows: hex HMAC-SHA256 of the raw body.
      const secret = (await portal(token, 'GET', `/endpoints/${endpoint.uid}`)).secrets[0].value;
      expect(req.headers['x-hookrail-signature']).toBe(
        createHmac('sha256', secret).update(req.rawBody).digest('hex'),
      );
    }

    // An event type the invoices endpoint did not pick reaches only the catch-all one.
    const created = await fanout('order.created');
    // The event is stored once routed, with the endpoints it was routed to.
    await waitFor('order.created routed', () => h.store.events.findById(p.id, created));
    await waitFor('order.created at the catch-all endpoint', () => requestsTo('/all').length === 2);
    expect(JSON.parse(requestsTo('/all')[1].body)).toEqual({ type: 'order.created' });
    const event = await portal(token, 'GET', `/events/${created}`);
    expect(event.endpoints).toEqual([all.uid]);
    expect(requestsTo('/invoices')).toHaveLength(1);
  });
});
