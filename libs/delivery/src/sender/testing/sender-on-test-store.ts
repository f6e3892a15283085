import type { Bus, DeliveryMessage } from '@hookrail/bus';
import { SecretBox, toTimestamp, type ProjectId } from '@hookrail/domain';
import { fetchOAuth2Token, HttpClient, OAuth2TokenCache } from '@hookrail/outbound';
import { ConfigCache, type DeliveryDoc, type Store, type SubscriptionDoc } from '@hookrail/store';
import { createLogger, Metrics } from '@hookrail/telemetry';
import { connectTestStore, makeDelivery, makeEvent, makeSubscription } from '@hookrail/testkit';
import { createSender, type SenderDeps } from '../send-delivery';

/**
 * The real sender for integration tests: on the test store and `bus`, sending to private
 * addresses (the tests' receivers), silent, with no gates unless `extra` gives some.
 */
export async function senderOnTestStore(bus: Bus, extra: Partial<SenderDeps> = {}) {
  const store = await connectTestStore();
  const http = new HttpClient({ allowPrivateTargets: true });
  await bus.ensureTopics();
  const send = createSender({
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
    ...extra,
  });
  const close = async () => {
    http.close();
    await bus.close();
    await store.close();
  };
  return { store, send, close };
}

/**
 * A delivery to send, stored as the router leaves it: its event, a subscription of the endpoint
 * and the delivery document (`over`: its status, next attempt…); `message` sends it for a reason,
 * `stored` reads the document as it is now.
 */
export async function storedDelivery(
  store: Store,
  projectId: ProjectId,
  endpointId: string,
  over: Partial<DeliveryDoc> = {},
  subscription: Partial<SubscriptionDoc> = {},
) {
  const sub = await makeSubscription(store, projectId, { ...subscription, endpoint_id: endpointId });
  const event = await makeEvent(store, projectId, { raw: '{"n":1}' });
  const delivery = await makeDelivery(store, projectId, {
    event_id: event._id,
    endpoint_id: endpointId,
    subscription_id: sub._id,
    ...over,
  });
  const message = (reason: DeliveryMessage['reason'], dueAt?: Date | null): DeliveryMessage => ({
    delivery_id: delivery._id,
    project_id: projectId,
    endpoint_id: endpointId,
    event_id: event._id,
    reason,
    ...(dueAt && { due_at: toTimestamp(dueAt) }),
  });
  return { delivery, message, stored: () => store.deliveries.findById(projectId, delivery._id) };
}
