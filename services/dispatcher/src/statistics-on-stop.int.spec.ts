import { newId } from '@hookrail/domain';
import type { RunningService } from '@hookrail/runtime';
import type { Store } from '@hookrail/store';
import {
  connectTestStore,
  eventMessage,
  makeEndpoint,
  makeProject,
  makeSubscription,
  startReceiver,
  startTestService,
  testBus,
  testConfig,
  uniquePrefix,
  waitFor,
  type Receiver,
} from '@hookrail/testkit';
import { definition } from './service';

describe('dispatcher graceful stop', () => {
  const prefix = uniquePrefix('stats-stop');
  const bus = testBus(prefix);
  let store: Store;
  let receiver: Receiver;
  let dispatcher: RunningService;

  beforeAll(async () => {
    store = await connectTestStore();
    receiver = await startReceiver();
    // The periodic flush is far away: only the flush on stop can write the statistics in time.
    dispatcher = await startTestService(
      definition(testConfig('dispatcher', { HOOKRAIL_KAFKA_TOPIC_PREFIX: prefix }), {
        statsFlushMs: 10 * 60_000,
      }),
    );
  });
  afterAll(async () => {
    await dispatcher?.stop();
    await receiver?.close();
    await bus.close();
    await store?.close();
  });

  it('writes the delivery counters, event types and endpoint event counts gathered since the last flush before it stops', async () => {
    const projectId = await makeProject(store);
    const ep = await makeEndpoint(store, projectId, { url: `${receiver.url}/hook` });
    const sourceId = newId();
    await makeSubscription(store, projectId, { endpoint_id: ep._id, source_id: sourceId });
    const m = eventMessage(projectId, { source_id: sourceId });
    await (await bus.connectPublisher()).publish('events', [m]);
    await waitFor(
      'delivery succeeded',
      async () => (await store.deliveries.listByEvents(projectId, [m.event_id]))[0]?.status === 'Success',
    );
    const minutes = () =>
      store.deliveryStats.series(projectId, ep._id, new Date(0), new Date(Date.now() + 60_000));
    expect(await minutes()).toEqual([]);
    expect((await store.endpoints.findById(projectId, ep._id))?.events).toBe(0);

    await dispatcher.stop();

    const [minute] = await minutes();
    expect(minute.outcomes).toEqual({ Success: 1 });
    const seen = await store.eventTypes.listForEndpoints(projectId, [ep._id], 10);
    expect(seen.map((s) => s.event_type)).toEqual([m.event_type]);
    expect((await store.endpoints.findById(projectId, ep._id))?.events).toBe(1);
  });
});
