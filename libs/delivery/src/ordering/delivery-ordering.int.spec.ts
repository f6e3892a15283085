import pTimeout from 'p-timeout';
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
 * DeliveryOrdering on the real store and Kafka, step by step: deliveries that wait in memory for
 * their head's attempt, and the hand-off of an endpoint's ordering keys from one dispatcher to the
 * next (a rebalance, or a dispatcher leaving). Two DeliveryOrdering instances stand for two
 * processes; which one owns the endpoint is what each is told.
 */
describe('ordered delivery: waiting behind a head, and an endpoint handed from one dispatcher to another', () => {
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

  /** A delivery of key `k` to the endpoint. */
  const keyed = (e: Awaited<ReturnType<typeof keyOrderedEndpoint>>) =>
    makeDelivery(store, e.projectId, {
      event_id: uniquePrefix('event'),
      endpoint_id: e.endpoint._id,
      subscription_id: e.subscription._id,
      metadata: { ordering_key: 'key:k' },
    });

  /** Whether the promise settles within `ms` (a delivery waiting in memory does not). */
  const settlesWithin = (p: Promise<unknown>, ms: number) =>
    pTimeout(
      p.then(() => true),
      { milliseconds: ms, fallback: () => false },
    );

  it('deliveries that waited in memory for the head keep their place ahead of later ones once they are held', async () => {
    // The head's failed attempt is recorded while its send is still finishing (its retry being
    // published); D1 and D2 come meanwhile and wait in memory. D3 comes as the send ends: it
    // must be held behind D1 and D2, never ahead of them (CI once saw 0, 3…19, 1, 2).
    const e = await keyOrderedEndpoint();
    const [h, d1, d2, d3] = [await keyed(e), await keyed(e), await keyed(e), await keyed(e)];
    const a = dispatcher(e.deployment);
    expect(await a.admit(message(h, 'retry'), h)).toEqual({ kind: 'send' });
    await a.recorded({ ...h, status: 'Retry' }, 'Retry');
    const w1 = a.admit(message(d1, 'retry'), d1);
    const w2 = a.admit(message(d2, 'retry'), d2);
    expect(await settlesWithin(w1, 200)).toBe(false);
    expect(await settlesWithin(w2, 200)).toBe(false);
    const p3 = a.admit(message(d3, 'retry'), d3); // its place is taken before the send ends
    await a.sent(h._id);
    const held = { kind: 'held', head: h._id };
    expect(await Promise.all([w1, w2, p3])).toEqual([held, held, held]);

    const seqs = await Promise.all(
      [d1, d2, d3].map(async (d) => (await store.ordering.findHeld(e.projectId, d._id))?.seq),
    );
    expect(seqs).toEqual([...seqs].sort((x, y) => (x ?? 0) - (y ?? 0)));
    expect(new Set(seqs).size).toBe(3);
    // the head succeeds: D1 is the next head, not D3
    await a.recorded({ ...h, status: 'Success' }, 'Success');
    expect((await store.ordering.findKey(e.projectId, e.endpoint._id, 'key:k'))?.head).toBe(d1._id);
  });

  /**
   * Dispatcher `a` owned the endpoint: head H of key `k` was sent and did not end at once, so X
   * was held behind it (the key's document and X's are written). Then dispatcher `b` took the
   * endpoint over and swept: it knows H as the head, still on its way.
   */
  async function handedOver() {
    const e = await keyOrderedEndpoint();
    const { deployment, projectId, endpoint } = e;
    const h = await keyed(e);
    const x = await keyed(e);
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
