import type { RunningService } from '@hookrail/runtime';
import { newId } from '@hookrail/domain';
import type { Bus, DeliveryMessage } from '@hookrail/bus';
import { purgeProject } from '@hookrail/operations';
import {
  eventMessage,
  makeSource,
  startReceiver,
  startTestService,
  testBus,
  testConfig,
  waitFor,
  type Receiver,
} from '@hookrail/testkit';
import { definition as dispatcher } from '../../../dispatcher/src/service';
import { seedLink } from '../portal/testing/portal-fixtures';
import { ADMIN_KEY, GatewayHarness } from '../testing/gateway-harness';

jest.setTimeout(120_000);

/**
 * Deleting a project: nothing of it is readable, accepted or delivered from the moment the call
 * returns (the dispatcher drops its in-flight events and deliveries), and the purge then removes
 * every document it owned.
 */
describe('project deletion cascades', () => {
  const h = new GatewayHarness();
  let dp: RunningService;
  let receiver: Receiver;
  let bus: Bus;

  beforeAll(async () => {
    await h.start();
    dp = await startTestService(
      dispatcher(testConfig('dispatcher', { HOOKRAIL_KAFKA_TOPIC_PREFIX: h.prefix })),
    );
    receiver = await startReceiver();
    bus = testBus(h.prefix);
  });
  afterAll(async () => {
    await bus?.close();
    await receiver?.close();
    await dp?.stop();
    await h.stop();
  });

  it('makes everything of the project unreadable and undelivered at once, then purges all of it', async () => {
    const p = await h.createProject();
    const ep = await h.call('POST', `/v1/projects/${p.id}/endpoints`, {
      key: p.key,
      body: { name: 'e', url: `${receiver.url}/hook` },
    });
    const endpointId = ep.body.data.uid as string;
    await h.call('POST', `/v1/projects/${p.id}/subscriptions`, {
      key: p.key,
      body: { name: 's', endpoint_id: endpointId, filter_config: { event_types: ['*'] } },
    });
    await makeSource(h.store, p.id);
    const { token } = await seedLink(h.store, p.id, { endpoints: [endpointId] });
    const sent: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await h.call('POST', `/v1/projects/${p.id}/events/broadcast`, {
        key: p.key,
        body: { event_type: 't', data: { i } },
      });
      sent.push(res.body.data.uid);
    }
    await waitFor('3 deliveries', () => receiver.requests.length === 3);
    const [delivery] = await waitFor('delivery recorded', async () => {
      const ds = await h.store.deliveries.listByEvents(p.id, [sent[0]]);
      return ds.length ? ds : undefined;
    });
    const before = await h.store.countProjectData(p.id);
    for (const c of [
      'endpoints',
      'subscriptions',
      'sources',
      'events',
      'event_deliveries',
      'api_keys',
      'portal_links',
    ])
      expect({ [c]: before[c] > 0 }).toEqual({ [c]: true });

    const del = await h.call('DELETE', `/v1/projects/${p.id}`, { key: ADMIN_KEY });
    expect(del.status).toBe(200);

    // Nothing readable: not with the admin key, not with the project's key, not through the portal.
    for (const path of [
      '',
      '/endpoints',
      '/events',
      `/events/${sent[0]}`,
      '/eventdeliveries',
      '/subscriptions',
    ])
      expect((await h.call('GET', `/v1/projects/${p.id}${path}`, { key: ADMIN_KEY })).status).toBe(404);
    expect(
      (await h.call('GET', `/v1/projects/${p.id}/endpoints`, { key: p.key })).status,
    ).toBeGreaterThanOrEqual(401);
    const portal = await fetch(`${h.gateway.url}/portal-api/endpoints`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(portal.status).toBe(401);
    expect(
      (
        await h.call('POST', `/v1/projects/${p.id}/events/broadcast`, {
          key: p.key,
          body: { event_type: 't', data: {} },
        })
      ).status,
    ).toBeGreaterThanOrEqual(401);

    // In flight when the project went: an accepted event and a due retry. Both are dropped.
    const publisher = await bus.connectPublisher();
    const late = eventMessage(p.id, { target: { mode: 'broadcast' } });
    await publisher.publish('events', [late]);
    // A routed delivery on its way to the sender (what the router publishes for a first send).
    const retry: DeliveryMessage = {
      delivery_id: newId(),
      project_id: p.id,
      endpoint_id: endpointId,
      event_id: delivery.event_id,
      reason: 'initial',
      first_send: {
        subscription_id: delivery.subscription_id,
        source_id: null,
        event_type: 't',
        delivery_mode: 'at_least_once',
        payload: null,
        raw: '{}',
        forward_headers: {},
        idempotency_key: null,
        siblings: 1,
        created_at: new Date().toISOString(),
      },
    };
    await publisher.publish('deliveries', [retry]);
    await new Promise((r) => setTimeout(r, 3000));
    expect(receiver.requests).toHaveLength(3);
    expect(await h.store.events.list(p.id, {}, 10)).toHaveLength(3);
    expect(await h.store.deliveries.listByEvents(p.id, [delivery.event_id])).toHaveLength(1);

    const purged = await purgeProject(h.store, p.id, { batch: 2 });
    expect(purged).toBeGreaterThanOrEqual(10);
    const after = await h.store.countProjectData(p.id);
    expect(Object.values(after).every((n) => n === 0)).toBe(true);
    expect(Object.keys(after)).toEqual(
      expect.arrayContaining(['meta_events', 'idempotency_claims', 'schedules']),
    );
  });

  it('a live project is never purged', async () => {
    const p = await h.createProject();
    expect(await purgeProject(h.store, p.id)).toBe(0);
    expect((await h.call('GET', `/v1/projects/${p.id}`, { key: p.key })).status).toBe(200);
  });
});
