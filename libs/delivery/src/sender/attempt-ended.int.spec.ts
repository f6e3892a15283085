import type { DeliveryMessage } from '@hookrail/bus';
import { newId, SecretBox } from '@hookrail/domain';
import { fetchOAuth2Token, HttpClient, OAuth2TokenCache } from '@hookrail/outbound';
import { ConfigCache, type Store } from '@hookrail/store';
import { createLogger, Metrics } from '@hookrail/telemetry';
import {
  connectTestStore,
  makeDelivery,
  makeEndpoint,
  makeEvent,
  makeProject,
  makeSubscription,
  startReceiver,
  testBus,
  uniquePrefix,
  type Receiver,
} from '@hookrail/testkit';
import { createSender } from './send-delivery';

/**
 * The sender says when an attempt's request has its answer, before the outcome is recorded (a
 * first send's local slot is given back then: createFirstSends); on the real store and a real
 * receiver.
 */
describe('sender: the end of an attempt, before its record', () => {
  const bus = testBus(uniquePrefix('attempt-ended'));
  const http = new HttpClient({ allowPrivateTargets: true });
  let store: Store;
  let receiver: Receiver;
  let send: ReturnType<typeof createSender>;

  beforeAll(async () => {
    store = await connectTestStore();
    receiver = await startReceiver();
    await bus.ensureTopics();
    send = createSender({
      store,
      config: new ConfigCache(store),
      http,
      tokens: new OAuth2TokenCache((c) => fetchOAuth2Token(c, { http })),
      box: new SecretBox(),
      publisher: await bus.connectPublisher(),
      stats: { add: () => undefined },
      logger: createLogger({ service: 'tests', level: 'silent' }),
      metrics: new Metrics('tests', { defaultMetrics: false }),
      gates: [],
    });
  });
  afterAll(async () => {
    http.close();
    await receiver?.close();
    await bus.close();
    await store?.close();
  });

  async function scheduled(endpointUrl: string | null): Promise<DeliveryMessage> {
    const projectId = await makeProject(store);
    const endpointId = endpointUrl
      ? (await makeEndpoint(store, projectId, { url: endpointUrl }))._id
      : newId();
    const sub = await makeSubscription(store, projectId, { endpoint_id: endpointId, source_id: newId() });
    const event = await makeEvent(store, projectId, { raw: '{"n":1}' });
    const d = await makeDelivery(store, projectId, {
      event_id: event._id,
      endpoint_id: endpointId,
      subscription_id: sub._id,
      status: 'Scheduled',
    });
    return {
      delivery_id: d._id,
      project_id: projectId,
      endpoint_id: endpointId,
      event_id: event._id,
      reason: 'initial',
    };
  }

  it('is told once the receiver answered, while the attempt is not yet recorded', async () => {
    const m = await scheduled(`${receiver.url}/hook`);
    const seen: { requests: number; attemptsStored: Promise<number | undefined> }[] = [];
    const before = receiver.count();
    await send(m, () =>
      seen.push({
        requests: receiver.count() - before,
        attemptsStored: store.deliveries
          .findById(m.project_id, m.delivery_id)
          .then((d) => d?.attempts.length),
      }),
    );
    expect(seen).toHaveLength(1);
    expect(seen[0].requests).toBe(1);
    expect(await seen[0].attemptsStored).toBe(0);
    const d = await store.deliveries.findById(m.project_id, m.delivery_id);
    expect(d?.status).toBe('Success');
    expect(d?.attempts).toHaveLength(1);
  });

  it('is not told when no attempt is made (the endpoint is gone)', async () => {
    const m = await scheduled(null);
    let told = 0;
    await send(m, () => told++);
    expect(told).toBe(0);
    const d = await store.deliveries.findById(m.project_id, m.delivery_id);
    expect(d).toMatchObject({ status: 'Discarded', status_reason: 'endpoint deleted' });
  });
});
