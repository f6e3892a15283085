import { createHmac } from 'node:crypto';
import type { ProjectId } from '@hookrail/domain';
import type { RunningService } from '@hookrail/runtime';
import { startReceiver, startTestService, testConfig, waitFor, type Receiver } from '@hookrail/testkit';
import { definition as dispatcher } from '../../../dispatcher/src/service';
import { GatewayHarness } from '../testing/gateway-harness';

jest.setTimeout(120_000);

/**
 * Configuration changes take effect before the API call returns: the gateway, two dispatcher
 * replicas on the same topics (either may route or send) and a real receiver. Each case first lets
 * the dispatchers cache the old configuration by delivering one event, then changes it and sends
 * the next event right after the call returned.
 */
describe('configuration changes are seen by every delivery after the call returned', () => {
  const h = new GatewayHarness();
  const dispatchers: RunningService[] = [];
  let receiver: Receiver;

  beforeAll(async () => {
    await h.start();
    for (let i = 0; i < 2; i++)
      dispatchers.push(
        await startTestService(
          dispatcher(testConfig('dispatcher', { HOOKRAIL_KAFKA_TOPIC_PREFIX: h.prefix })),
        ),
      );
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await Promise.all(dispatchers.map((d) => d.stop()));
    await h.stop();
  });

  const received = (eventId: string) =>
    receiver.requests.filter((r) => r.headers['x-hookrail-event-id'] === eventId);
  const arrived = (eventId: string) =>
    waitFor(`event ${eventId} at the receiver`, () => received(eventId)[0], { timeoutMs: 20_000 });

  async function send(
    p: { id: string; key: string },
    mode: 'single' | 'broadcast',
    body: Record<string, unknown>,
  ): Promise<string> {
    const path = mode === 'single' ? 'events' : 'events/broadcast';
    const res = await h.call('POST', `/v1/projects/${p.id}/${path}`, { key: p.key, body });
    expect(res.status).toBe(201);
    return res.body.data.uid;
  }

  async function endpoint(p: { id: string; key: string }, name: string, secret?: string) {
    const res = await h.call('POST', `/v1/projects/${p.id}/endpoints`, {
      key: p.key,
      body: { name, url: `${receiver.url}/${name}`, ...(secret && { secret }) },
    });
    expect(res.status).toBe(201);
    return res.body.data.uid as string;
  }

  /** An event's delivery, once its record exists and is no longer in flight. */
  async function deliveryOf(p: { id: ProjectId }, eventId: string) {
    return waitFor(`delivery of ${eventId} recorded`, async () => {
      const [d] = await h.store.deliveries.listByEvents(p.id, [eventId]);
      return d && d.status !== 'Processing' ? d : undefined;
    });
  }

  it('signs the next delivery after expire_secret (expiration 0) returns with the new secret', async () => {
    const p = await h.createProject();
    const ep = await endpoint(p, 'roll', 'secret-0');
    const sign = (secret: string, body: Buffer) => createHmac('sha256', secret).update(body).digest('hex');
    const first = await arrived(
      await send(p, 'single', { endpoint_id: ep, event_type: 't', data: { n: 0 } }),
    );
    expect(first.headers['x-hookrail-signature']).toBe(sign('secret-0', first.rawBody));

    for (let i = 1; i <= 4; i++) {
      const rolled = await h.call('PUT', `/v1/projects/${p.id}/endpoints/${ep}/expire_secret`, {
        key: p.key,
        body: { expiration: 0, secret: `secret-${i}` },
      });
      expect(rolled.status).toBe(200);
      const req = await arrived(
        await send(p, 'single', { endpoint_id: ep, event_type: 't', data: { n: i } }),
      );
      expect(req.headers['x-hookrail-signature']).toBe(sign(`secret-${i}`, req.rawBody));
    }
  });

  it('holds deliveries of an endpoint paused a moment ago (none reaches it)', async () => {
    const p = await h.createProject();
    const ep = await endpoint(p, 'pause');
    await arrived(await send(p, 'single', { endpoint_id: ep, event_type: 't', data: {} }));

    const paused = await h.call('PUT', `/v1/projects/${p.id}/endpoints/${ep}/pause`, { key: p.key });
    expect(paused.status).toBe(202);
    const ids = [];
    for (let i = 0; i < 3; i++)
      ids.push(await send(p, 'single', { endpoint_id: ep, event_type: 't', data: { i } }));
    for (const id of ids) {
      const d = await deliveryOf(p, id);
      expect(d.status).toBe('Scheduled');
      expect(received(id)).toHaveLength(0);
    }
  });

  it('delivers nothing through a subscription deleted a moment ago', async () => {
    const p = await h.createProject();
    const ep = await endpoint(p, 'gone');
    const sub = await h.call('POST', `/v1/projects/${p.id}/subscriptions`, {
      key: p.key,
      body: { name: 'all', endpoint_id: ep, filter_config: { event_types: ['*'] } },
    });
    expect(sub.status).toBe(201);
    await arrived(await send(p, 'broadcast', { event_type: 't', data: {} }));

    const del = await h.call('DELETE', `/v1/projects/${p.id}/subscriptions/${sub.body.data.uid}`, {
      key: p.key,
    });
    expect(del.status).toBe(200);
    const after = await send(p, 'broadcast', { event_type: 't', data: {} });
    const event = await waitFor('event routed', async () => {
      const res = await h.call('GET', `/v1/projects/${p.id}/events/${after}`, { key: p.key });
      return res.body.data?.status === 'Failure' ? res.body.data : undefined;
    });
    expect(event.status).toBe('Failure'); // reached no endpoint
    expect(received(after)).toHaveLength(0);
  });

  it('routes by a filter changed a moment ago', async () => {
    const p = await h.createProject();
    const ep = await endpoint(p, 'filtered');
    const base = `/v1/projects/${p.id}/subscriptions`;
    const sub = await h.call('POST', base, {
      key: p.key,
      body: {
        name: 'gold',
        endpoint_id: ep,
        filter_config: { event_types: ['*'], filter: { body: { tier: 'gold' } } },
      },
    });
    expect(sub.status).toBe(201);
    // Several events, so both replicas' routers have the old filter cached.
    const warm = [];
    for (let i = 0; i < 6; i++)
      warm.push(await send(p, 'broadcast', { event_type: 't', data: { tier: 'gold' } }));
    for (const id of warm) await arrived(id);

    const upd = await h.call('PUT', `${base}/${sub.body.data.uid}`, {
      key: p.key,
      body: { filter_config: { event_types: ['*'], filter: { body: { tier: 'silver' } } } },
    });
    expect(upd.status).toBe(202);
    const golds = [];
    for (let i = 0; i < 4; i++)
      golds.push(await send(p, 'broadcast', { event_type: 't', data: { tier: 'gold' } }));
    const silver = await send(p, 'broadcast', { event_type: 't', data: { tier: 'silver' } });
    await arrived(silver);
    for (const gold of golds) {
      await waitFor('gold event routed', async () => {
        const res = await h.call('GET', `/v1/projects/${p.id}/events/${gold}`, { key: p.key });
        return res.body.data?.status === 'Failure' ? true : undefined;
      });
      expect(received(gold)).toHaveLength(0);
    }
  });
});
