import { catchAllSubscriptionId } from '@hookrail/routing';
import type { RunningService } from '@hookrail/runtime';
import type { Store } from '@hookrail/store';
import {
  captureLogs,
  connectTestStore,
  eventMessage,
  makeEndpoint,
  makeProject,
  makeSource,
  makeSubscription,
  startReceiver,
  startTestService,
  subscriptionDoc,
  testBus,
  testConfig,
  uniquePrefix,
  waitFor,
  type Receiver,
} from '@hookrail/testkit';
import { definition } from './service';
import type { ProjectId } from '@hookrail/domain';

describe('router: events aimed at endpoints without subscriptions, and events that reach nothing', () => {
  const prefix = uniquePrefix('route');
  const bus = testBus(prefix);
  const receivers: Receiver[] = [];
  let store: Store;
  let dispatcher: RunningService;
  const logs = captureLogs('dispatcher');

  beforeAll(async () => {
    store = await connectTestStore();
    dispatcher = await startTestService({
      ...definition(testConfig('dispatcher', { HOOKRAIL_KAFKA_TOPIC_PREFIX: prefix })),
      logger: logs.logger,
    });
  });
  afterAll(async () => {
    await dispatcher?.stop();
    await Promise.all(receivers.map((r) => r.close()));
    await bus.close();
    await store?.close();
  });

  const receiver = async () => {
    const r = await startReceiver();
    receivers.push(r);
    return r;
  };
  const publish = async (...ms: ReturnType<typeof eventMessage>[]) =>
    (await bus.connectPublisher()).publish('events', ms);
  const stored = (projectId: ProjectId, eventId: string) =>
    waitFor('event stored', () => store.events.findById(projectId, eventId));

  it('an endpoint with no subscription gets one catch-all subscription on its first event and receives it', async () => {
    const projectId = await makeProject(store, {}, 'outgoing');
    const rec = await receiver();
    const ep = await makeEndpoint(store, projectId, { url: rec.url });
    const first = eventMessage(projectId, { target: { mode: 'single', endpoint_id: ep._id } });
    const second = eventMessage(projectId, {
      event_type: 'user.created',
      target: { mode: 'single', endpoint_id: ep._id },
    });
    await publish(first, second);

    await waitFor('both delivered', () => rec.count() === 2 || undefined);
    const subs = await store.subscriptions.listByEndpoint(projectId, ep._id);
    expect(subs).toHaveLength(1);
    expect(subs[0]).toMatchObject({
      _id: catchAllSubscriptionId(ep._id, ep.created_at),
      filter_config: { event_types: ['*'] },
    });
    const counted = await waitFor('events counted', async () => {
      const e = await store.endpoints.findById(projectId, ep._id);
      return e && e.events === 2 ? e : undefined;
    });
    expect(counted.events).toBe(2);
    // one info line per attempt, naming what an operator searches by
    const attempt = await waitFor('attempt logged', () =>
      logs.lines().find((l) => l.msg === 'delivery attempt' && l.event_id === first.event_id),
    );
    expect(attempt).toMatchObject({
      level: 'info',
      project_id: projectId,
      endpoint_id: ep._id,
      attempt: 1,
      http_status: 200,
      outcome: 'Success',
    });
    expect(typeof attempt.latency_ms).toBe('number');
  });

  it('a deleted catch-all is made live again for an endpoint left without subscriptions; a subscribed endpoint gets none', async () => {
    const projectId = await makeProject(store, {}, 'outgoing');
    const rec = await receiver();
    const bare = await makeEndpoint(store, projectId, { url: rec.url, owner_id: 'acme' });
    const subscribed = await makeEndpoint(store, projectId, { url: rec.url, owner_id: 'acme' });
    await makeSubscription(store, projectId, { endpoint_id: subscribed._id }, { event_types: ['user.*'] });
    const catchAll = catchAllSubscriptionId(bare._id, bare.created_at);
    await store.subscriptions.ensureLive(
      projectId,
      subscriptionDoc(projectId, { _id: catchAll, endpoint_id: bare._id }),
    );
    await store.subscriptions.softDelete(projectId, catchAll);

    const fanout = eventMessage(projectId, { target: { mode: 'fanout', owner_id: 'acme' } });
    await publish(fanout);
    const req = (await waitFor('fanout delivered', () => rec.requests[0]))!;
    expect(req.headers['x-hookrail-event-id']).toBe(fanout.event_id);
    const event = await stored(projectId, fanout.event_id);
    expect(event.endpoints).toEqual([bare._id]);
    expect((await store.subscriptions.findById(projectId, catchAll))?.deleted_at).toBeNull();
    expect(await store.subscriptions.listByEndpoint(projectId, subscribed._id)).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 300));
    expect(rec.count()).toBe(1);
  });

  it("a subscription that names a source takes only that source's events: one delivery per endpoint in every target mode", async () => {
    const projectId = await makeProject(store, {}, 'outgoing');
    const rec = await receiver();
    const source = await makeSource(store, projectId);
    // A: the source's subscription beside a general one (the README quick start's shape); B: the source's only
    const a = await makeEndpoint(store, projectId, { url: rec.url, owner_id: 'o' });
    const b = await makeEndpoint(store, projectId, { url: rec.url, owner_id: 'o' });
    const aSource = await makeSubscription(store, projectId, { endpoint_id: a._id, source_id: source._id });
    const aGeneral = await makeSubscription(store, projectId, { endpoint_id: a._id });
    const bSource = await makeSubscription(store, projectId, { endpoint_id: b._id, source_id: source._id });
    const api = {
      single: eventMessage(projectId, { target: { mode: 'single', endpoint_id: a._id } }),
      fanout: eventMessage(projectId, { target: { mode: 'fanout', owner_id: 'o' } }),
      broadcast: eventMessage(projectId, { target: { mode: 'broadcast' } }),
      toSourceOnly: eventMessage(projectId, { target: { mode: 'single', endpoint_id: b._id } }),
    };
    // a broker source's message aimed at endpoints (outgoing project): through the source's subscriptions
    const fromSource = eventMessage(projectId, {
      source_id: source._id,
      target: { mode: 'fanout', owner_id: 'o' },
    });
    await publish(...Object.values(api), fromSource);

    const subscriptionsOf = async (eventId: string, count: number) =>
      (
        await waitFor(`${count} deliveries of ${eventId}`, async () => {
          const ds = await store.deliveries.listByEvents(projectId, [eventId]);
          return ds.length === count ? ds : undefined;
        })
      )
        .map((d) => d.subscription_id)
        .sort();
    expect(await subscriptionsOf(api.single.event_id, 1)).toEqual([aGeneral._id]);
    expect(await subscriptionsOf(api.fanout.event_id, 1)).toEqual([aGeneral._id]);
    expect(await subscriptionsOf(api.broadcast.event_id, 1)).toEqual([aGeneral._id]);
    expect(await subscriptionsOf(fromSource.event_id, 2)).toEqual([aSource._id, bSource._id].sort());
    expect(await stored(projectId, api.toSourceOnly.event_id)).toMatchObject({
      status: 'Failure',
      status_reason: `the subscriptions for endpoint ${b._id} all name a source: a subscription with a source receives only that source's events`,
    });
    // B has subscriptions, so no catch-all was made for it
    expect(await store.subscriptions.listByEndpoint(projectId, b._id)).toHaveLength(1);
    await waitFor('five requests', () => rec.count() >= 5 || undefined);
    await new Promise((r) => setTimeout(r, 300));
    const perEvent = rec.requests.map((r) => r.headers['x-hookrail-event-id']);
    expect(perEvent.sort()).toEqual(
      [api.single, api.fanout, api.broadcast, fromSource, fromSource].map((m) => m.event_id).sort(),
    );
  });

  it('records why an event reached no endpoint', async () => {
    const projectId = await makeProject(store, {}, 'outgoing');
    const rec = await receiver();
    const ep = await makeEndpoint(store, projectId, { url: rec.url, owner_id: 'o1' });
    await makeSubscription(store, projectId, { endpoint_id: ep._id }, { event_types: ['invoice.*'] });
    await makeSubscription(store, projectId, { endpoint_id: ep._id }, { body: { amount: { $gt: 1000 } } });
    const cases = [
      {
        m: eventMessage(projectId, { target: { mode: 'fanout', owner_id: 'nobody' } }),
        reason: 'owner_id nobody has no endpoints',
      },
      {
        m: eventMessage(projectId, { target: { mode: 'source' }, source_id: undefined }),
        reason: 'the event has no source and no endpoint target',
      },
      {
        m: eventMessage(projectId, {
          event_type: 'user.created',
          data: { amount: 1 },
          target: { mode: 'broadcast' },
        }),
        reason: 'the filters of the subscription in the project rejected the event',
      },
    ];
    await publish(...cases.map((c) => c.m));
    for (const c of cases)
      expect(await stored(projectId, c.m.event_id)).toMatchObject({
        status: 'Failure',
        status_reason: c.reason,
        endpoints: [],
      });
    expect(
      logs.lines().find((l) => l.msg === 'event reached no endpoint' && l.event_id === cases[0].m.event_id),
    ).toMatchObject({ level: 'info', project_id: projectId, reason: cases[0].reason });
    const metrics = await (await fetch(`${dispatcher.url}/metrics`)).text();
    expect(metrics).toMatch(/hookrail_events_unrouted_total\{reason="owner_has_no_endpoints",[^}]*\} [1-9]/);
    expect(rec.count()).toBe(0);
  });
});
