import type { DeliveryMessage, Publisher } from '@hookrail/bus';
import { idFrom, type ProjectId } from '@hookrail/domain';
import { ConfigCache, type DeliveryDoc, type Store } from '@hookrail/store';
import { createLogger, Metrics } from '@hookrail/telemetry';
import {
  connectTestStore,
  makeDelivery,
  makeEndpoint,
  makeProject,
  makeSource,
  makeSubscription,
  testBus,
  uniquePrefix,
} from '@hookrail/testkit';
import { DeliveryOrdering } from './delivery-ordering';

/**
 * The hand-off of an endpoint's ordering keys from one dispatcher to the next (a rebalance, or a
 * dispatcher leaving), on the real store and Kafka. Two DeliveryOrdering instances stand for the
 * two processes; which one owns the endpoint is what each is told.
 */
describe('ordered delivery: an endpoint handed from one dispatcher to another', () => {
  const prefix = uniquePrefix('handoff');
  const bus = testBus(prefix);
  let store: Store;
  let publisher: Publisher;

  beforeAll(async () => {
    store = await connectTestStore();
    await bus.ensureTopics();
    publisher = await bus.connectPublisher();
  });
  afterAll(async () => {
    await bus.close();
    await store?.close();
  });

  /**
   * A dispatcher's ordering, owning the endpoint. No sender is handed to it, so a delivery it
   * releases is published to the deliveries topic, as by a process that no longer owns it.
   */
  function dispatcher(deployment: string) {
    return new DeliveryOrdering({
      store,
      publisher,
      config: new ConfigCache(store),
      logger: createLogger({ service: 'tests', level: 'silent' }),
      metrics: new Metrics('tests', { defaultMetrics: false }),
      deployment,
      owns: () => true,
    });
  }

  const message = (d: DeliveryDoc, reason: DeliveryMessage['reason']): DeliveryMessage => ({
    delivery_id: d._id,
    project_id: d.project_id,
    endpoint_id: d.endpoint_id,
    event_id: d.event_id,
    reason,
  });

  /** An endpoint with a subscription ordered by key, in a deployment of its own. */
  async function keyOrderedEndpoint() {
    const deployment = uniquePrefix('deploy');
    const projectId: ProjectId = await makeProject(store);
    const source = await makeSource(store, projectId);
    const endpoint = await makeEndpoint(store, projectId, { url: 'http://127.0.0.1:9/hook' });
    const subscription = await makeSubscription(store, projectId, {
      source_id: source._id,
      endpoint_id: endpoint._id,
      ordering: { mode: 'key', key: { body_path: 'k' }, unblock_on: ['failure', 'discarded'] },
    });
    return { deployment, projectId, source, endpoint, subscription };
  }

  /**
   * Dispatcher `a` owned the endpoint: head H of key `k` was sent and did not end at once, so X
   * was held behind it (the key's document and X's are written). Then dispatcher `b` took the
   * endpoint over and swept: it knows H as the head, still on its way.
   */
  async function handedOver() {
    const { deployment, projectId, endpoint, subscription } = await keyOrderedEndpoint();
    const delivery = () =>
      makeDelivery(store, projectId, {
        event_id: uniquePrefix('event'),
        endpoint_id: endpoint._id,
        subscription_id: subscription._id,
        metadata: { ordering_key: 'key:k' },
      });
    const h = await delivery();
    const x = await delivery();
    const a = dispatcher(deployment);
    expect(await a.admit(message(h, 'retry'), h)).toEqual({ kind: 'send' });
    await a.sent(h._id); // its attempt ended without an outcome that moves the key on
    expect(await a.admit(message(x, 'retry'), x)).toEqual({ kind: 'held', head: h._id });
    const b = dispatcher(deployment);
    await b.sweep();

    const key = () => store.ordering.findKey(projectId, endpoint._id, 'key:k');
    const held = (d: DeliveryDoc) => store.ordering.findHeld(projectId, d._id);
    expect((await key())?.head).toBe(h._id);
    expect(await held(x)).not.toBeNull();
    /** H's attempt succeeded and its outcome is stored (what `a` records for a send it started). */
    const succeeded = async () => {
      await store.deliveries.recordOutcomes([
        {
          delivery: h,
          status: 'Success',
          reason: null,
          nextAttemptAt: null,
          attempt: null,
          retrySpent: false,
          firstRecord: false,
        },
      ]);
      return { ...h, status: 'Success' as const };
    };
    return { a, b, h, x, projectId, endpointId: endpoint._id, deployment, key, held, succeeded };
  }

  it('the new owner sends a delivery the previous one released after the hand-off, instead of holding it for good', async () => {
    const { a, b, h, x, key, held, succeeded } = await handedOver();
    // H's retry goes out from `a`, which has not heard of the rebalance when its outcome comes
    // (a write already on its way when it did): it releases X, to Kafka.
    expect(await a.admit(message(h, 'retry'), h)).toEqual({ kind: 'send' });
    await a.recorded(await succeeded(), 'Success');
    expect((await key())?.head).toBe(x._id);
    expect(await held(x)).toBeNull();
    // `b` still knows H as the head: the released X shows the key moved on, and it is sent.
    expect(await b.admit(message(x, 'released'), x)).toEqual({ kind: 'send' });
  });

  it('after a rebalance, the previous owner writes nothing for a send it started before; the new owner releases from its sweep', async () => {
    const { a, b, h, x, key, held, succeeded } = await handedOver();
    // H's retry is on its way from `a` when the rebalance comes.
    expect(await a.admit(message(h, 'retry'), h)).toEqual({ kind: 'send' });
    a.reset();
    await a.recorded(await succeeded(), 'Success');
    expect((await key())?.head).toBe(h._id);
    expect(await held(x)).not.toBeNull();
    await expect(a.admit(message(x, 'retry'), x)).resolves.toEqual({ kind: 'held', head: h._id });

    await b.sweep();
    expect((await key())?.head).toBe(x._id);
    expect(await held(x)).toBeNull(); // published as `released`
    expect(await b.admit(message(x, 'released'), x)).toEqual({ kind: 'send' });
  });

  it('a first send routed again after the hand-off (its event accepted before) is not sent again when its delivery ended', async () => {
    // The events topic was rebalanced too: the new router routes again an event whose offset the
    // previous one had not committed, though that event's delivery was sent and succeeded.
    const { deployment, projectId, source, endpoint, subscription } = await keyOrderedEndpoint();
    const acceptedAt = Date.now() - 60_000; // before the new owner took the endpoint over
    const sent = await makeDelivery(store, projectId, {
      _id: idFrom(uniquePrefix('event'), acceptedAt), // what deliveryId gives: the acceptance time
      event_id: uniquePrefix('event'),
      endpoint_id: endpoint._id,
      subscription_id: subscription._id,
      status: 'Success',
      metadata: { ordering_key: 'key:k' },
    });
    const routedAgain: DeliveryMessage = {
      ...message(sent, 'initial'),
      first_send: {
        subscription_id: subscription._id,
        source_id: source._id,
        event_type: sent.event_type,
        delivery_mode: 'at_least_once',
        payload: null,
        raw: '{"k":"k"}',
        forward_headers: {},
        idempotency_key: null,
        siblings: 1,
        created_at: new Date(Date.now() + 60_000).toISOString(), // routed after the takeover
        config_version: '',
        headers: {},
        ordering_key: 'key:k',
      },
    };
    const b = dispatcher(deployment);
    // As the sender hands it over: built from the message, so not yet known to have ended.
    expect(await b.admit(routedAgain, { ...sent, status: 'Scheduled' })).toEqual({ kind: 'done' });
  });

  it('the sweep reads again a key the previous owner moved on after the hand-off, and finishes its release', async () => {
    const { b, x, projectId, endpointId, deployment, key, held, succeeded } = await handedOver();
    // The previous owner wrote X down as the head and stopped before publishing it.
    await succeeded();
    const before = await key();
    await store.ordering.saveKeys([
      {
        project_id: projectId,
        endpoint_id: endpointId,
        deployment,
        key: 'key:k',
        head: x._id,
        blocked_since: before!.blocked_since,
        head_status: null,
        newHead: true,
      },
    ]);
    expect(await held(x)).not.toBeNull();
    await b.sweep();
    expect(await held(x)).toBeNull(); // published as `released`
    expect((await key())?.head).toBe(x._id);
    expect(await b.admit(message(x, 'released'), x)).toEqual({ kind: 'send' });
  });
});
