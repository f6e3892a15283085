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
import { newId } from '@hookrail/domain';
import { definition } from './service';

/** A dispatcher as deployed (private targets not allowed) against a real receiver on loopback. */
describe('dispatcher SSRF guard', () => {
  const prefix = uniquePrefix('ssrf');
  const bus = testBus(prefix);
  let store: Store;
  let dispatcher: RunningService;
  let receiver: Receiver;

  beforeAll(async () => {
    store = await connectTestStore();
    receiver = await startReceiver();
    dispatcher = await startTestService(
      definition(
        testConfig('dispatcher', {
          HOOKRAIL_KAFKA_TOPIC_PREFIX: prefix,
          HOOKRAIL_ALLOW_PRIVATE_TARGETS: 'false',
        }),
      ),
    );
  });
  afterAll(async () => {
    await dispatcher?.stop();
    await receiver?.close();
    await bus.close();
    await store?.close();
  });

  it.each([
    ['a loopback IP literal', (port: number) => `http://127.0.0.1:${port}/hook`],
    ['a name that resolves to loopback', (port: number) => `http://localhost:${port}/hook`],
    ['the cloud metadata address', () => 'http://169.254.169.254/latest/meta-data/'],
  ])('refuses %s: the delivery fails with the reason and nothing is sent', async (_label, url) => {
    const projectId = await makeProject(store, { strategy: { type: 'linear', duration: 1, retry_count: 0 } });
    const ep = await makeEndpoint(store, projectId, { url: url(Number(new URL(receiver.url).port)) });
    const sourceId = newId();
    await makeSubscription(store, projectId, { endpoint_id: ep._id, source_id: sourceId });
    const m = eventMessage(projectId, { source_id: sourceId });
    await (await bus.connectPublisher()).publish('events', [m]);

    const [delivery] = await waitFor('delivery failed', async () => {
      const ds = await store.deliveries.listByEvents(projectId, [m.event_id]);
      return ds[0]?.status === 'Failure' ? ds : undefined;
    });
    const attempt = delivery.attempts[delivery.attempts.length - 1];
    expect(attempt?.error ?? delivery.status_reason).toMatch(/private, loopback or link-local/);
    expect(attempt?.http_status ?? null).toBeNull();
    expect(receiver.requests).toHaveLength(0);
  });
});
