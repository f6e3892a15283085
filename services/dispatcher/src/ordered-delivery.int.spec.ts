import type { RunningService } from '@hookrail/runtime';
import type { Store } from '@hookrail/store';
import { Kafka, logLevel } from 'kafkajs';
import {
  connectTestStore,
  createTopicsWithLeaders,
  makeEndpoint,
  makeProject,
  makeSource,
  makeSubscription,
  TEST_BROKERS,
  startTestService,
  testBus,
  testConfig,
  uniquePrefix,
  waitFor,
  waitWhileProgressing,
} from '@hookrail/testkit';
import { definition as retrySchedulerDefinition } from '../../retry-scheduler/src/service';
import { definition } from './service';
import {
  type Arrival,
  keyOrderedTarget,
  missing,
  orderedProject,
  outOfOrder,
  overtakes,
  publishOrdered,
  startOrderedReceiver,
  successesByKey,
} from './testing/ordered-load';

// Generous: with two jest workers and the servers on two cores a retry round can take seconds.
jest.setTimeout(240_000);

/**
 * docs/ordered-delivery.md: deliveries of one ordering key reach the endpoint one at a time, in
 * acceptance order, through failed attempts and their retries; other keys are not held.
 */
describe('ordered delivery through the dispatcher and the retry-scheduler', () => {
  const prefix = uniquePrefix('ordered');
  const bus = testBus(prefix);
  const closers: { close(): Promise<void> }[] = [];
  let store: Store;
  let services: RunningService[] = [];

  beforeAll(async () => {
    store = await connectTestStore();
    const env = { HOOKRAIL_KAFKA_TOPIC_PREFIX: prefix };
    services = await Promise.all([
      startTestService(definition(testConfig('dispatcher', env))),
      startTestService(retrySchedulerDefinition(testConfig('retry-scheduler', env))),
    ]);
  });
  afterAll(async () => {
    await Promise.all(services.map((s) => s.stop()));
    await Promise.all(closers.map((c) => c.close()));
    await bus.close();
    await store?.close();
  });

  it('1,000 events over 50 keys, every third failing its first attempt: each key in order, keys not held by others', async () => {
    const { receiver, arrivals, target } = await keyOrderedTarget(store);
    closers.push(receiver);
    await publishOrdered(bus, target, 1000, 50);

    // Each key goes through about seven failed first attempts and their 1 s retries in turn: the
    // pace follows the host's load (40 s was once not enough in CI), so only a stall fails.
    await waitWhileProgressing(
      'every event delivered',
      () => missing(arrivals, 1000).length === 0,
      () => arrivals.length,
      { stallMs: 20_000, timeoutMs: 180_000 },
    ).catch(async (err: Error) => {
      // what the dispatcher's ordering state says, so a failure in CI explains itself
      const keys = await store.ordering.ofEndpoint(target.projectId, target.endpointId);
      const heads = await Promise.all(
        keys.slice(0, 3).map(async (k) => {
          const head = await store.deliveries.findForSend(target.projectId, k.head);
          return {
            key: k.key,
            head_status: k.head_status,
            head: head && {
              status: head.status,
              reason: head.status_reason,
              next: head.next_attempt_at,
              attempts: head.attempts_made,
            },
            held: await store.ordering.countHeld(target.projectId, target.endpointId, k.key),
          };
        }),
      );
      const endpoint = await store.endpoints.findById(target.projectId, target.endpointId);
      throw new Error(
        `${err.message}: missing ${missing(arrivals, 1000).slice(0, 20).join(', ')}; ` +
          `${keys.length} blocked keys, first heads ${JSON.stringify(heads)}; ` +
          `breaker ${JSON.stringify(endpoint?.circuit_breaker)}; ${arrivals.filter((a) => !a.ok).length} failed attempts of ${arrivals.length}`,
      );
    });
    expect(outOfOrder(arrivals)).toEqual([]);
    const byKey = successesByKey(arrivals);
    expect(byKey.size).toBe(50);
    for (const ns of byKey.values()) expect(ns).toHaveLength(20);
    // a third of the first attempts failed, and while such a key waited, later events of other keys went out
    expect(arrivals.filter((a) => !a.ok).length).toBeGreaterThanOrEqual(333);
    expect(overtakes(arrivals)).toBeGreaterThan(100);
    // nothing is left blocked or held once every head succeeded
    await waitFor(
      'no blocked key left',
      async () => (await store.ordering.ofEndpoint(target.projectId, target.endpointId)).length === 0,
    );
    expect(await store.ordering.heldOfEndpoint(target.projectId, target.endpointId)).toEqual([]);
  });

  it('endpoint ordering with the endpoint down for 30 s: everything arrives in acceptance order once it is back', async () => {
    let downUntil = Date.now() + 30_000;
    const { receiver, arrivals } = await startOrderedReceiver(
      Number.MAX_SAFE_INTEGER,
      () => Date.now() < downUntil,
    );
    closers.push(receiver);
    const target = await orderedProject(store, `${receiver.url}/hook`, {
      mode: 'endpoint',
      key: null,
      unblock_on: ['failure', 'discarded'],
    });
    downUntil = Date.now() + 30_000;
    await publishOrdered(bus, target, 100, 7, { batch: 10 });
    // while it is down, only the head is tried; the rest wait, visible as one blocked key
    const blocked = await waitFor(
      'the endpoint key blocked',
      async () => {
        const keys = await store.ordering.ofEndpoint(target.projectId, target.endpointId);
        return keys.length === 1 &&
          (await store.ordering.countHeld(target.projectId, target.endpointId, 'endpoint')) === 99
          ? keys[0]
          : undefined;
      },
      { timeoutMs: 25_000 },
    );
    expect(blocked.key).toBe('endpoint');
    expect(new Set(arrivals.map((a) => a.n))).toEqual(new Set([0]));

    await waitFor('every event delivered', () => missing(arrivals, 100).length === 0, {
      timeoutMs: 60_000,
      intervalMs: 250,
    });
    const successes = arrivals.filter((a) => a.ok).map((a) => a.n);
    expect(successes).toEqual(Array.from({ length: 100 }, (_, n) => n));
    expect(arrivals.filter((a) => !a.ok).every((a) => a.n === 0)).toBe(true);
  });

  it('a head that failed for good keeps its key blocked when unblock_on says so, until an operator skips it', async () => {
    const { receiver, arrivals } = await startOrderedReceiver(1000);
    closers.push(receiver);
    const target = await orderedProject(
      store,
      `${receiver.url}/hook`,
      { mode: 'key', key: { body_path: 'order.key' }, unblock_on: [] },
      { type: 'linear', duration: 1, retry_count: 0 },
    );
    await publishOrdered(bus, target, 5, 1);
    const blocked = await waitFor('the key blocked by its failed head', async () => {
      const [key] = await store.ordering.ofEndpoint(target.projectId, target.endpointId);
      const held = await store.ordering.countHeld(target.projectId, target.endpointId, 'key:k0');
      return key?.head_status === 'Failure' && held === 4 ? key : undefined;
    });
    expect(arrivals.map((a) => [a.n, a.ok])).toEqual([[0, false]]);

    // what POST .../blocked-keys/unblock asks for; the dispatcher's sweep carries it out
    expect(
      await store.ordering.requestSkip(target.projectId, target.endpointId, blocked.key, blocked.head),
    ).toBe(true);
    await waitFor('the held deliveries sent', () => missing(arrivals, 5).join() === '0', {
      timeoutMs: 15_000,
    });
    expect(arrivals.filter((a) => a.ok).map((a) => a.n)).toEqual([1, 2, 3, 4]);
    await waitFor(
      'the key free again',
      async () => (await store.ordering.ofEndpoint(target.projectId, target.endpointId)).length === 0,
    );
  });

  it('a Kafka destination with key ordering: each key in acceptance order on the broker', async () => {
    const topic = `ordered-destination-${prefix}`; // not under the prefix: Hookrail never publishes to its own topics
    const kafka = new Kafka({
      clientId: 'tests',
      brokers: TEST_BROKERS.kafkaBrokers,
      logLevel: logLevel.NOTHING,
    });
    const admin = kafka.admin();
    await admin.connect();
    // one partition: the broker's order is the order the sender published in
    await createTopicsWithLeaders(admin, [{ topic, numPartitions: 1 }]);
    const got: Arrival[] = [];
    const reader = kafka.consumer({ groupId: `${topic}-reader`, maxWaitTimeInMs: 100 });
    await reader.connect();
    await reader.subscribe({ topic, fromBeginning: true });
    await reader.run({
      eachMessage: async ({ message }) => {
        const { key, n } = (JSON.parse(message.value!.toString()) as { order: { key: string; n: number } })
          .order;
        got.push({ key, n, deliveryId: '', ok: true, at: Date.now() });
      },
    });
    closers.push({
      close: async () => {
        await reader.disconnect();
        await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
        await admin.disconnect();
      },
    });
    const projectId = await makeProject(store);
    const source = await makeSource(store, projectId, { name: 'ordered source' });
    const endpoint = await makeEndpoint(store, projectId, {
      url: '',
      type: 'kafka',
      destination: { brokers: TEST_BROKERS.kafkaBrokers, topic_name: topic },
      secrets: [],
    });
    await makeSubscription(store, projectId, {
      source_id: source._id,
      endpoint_id: endpoint._id,
      ordering: { mode: 'key', key: { body_path: 'order.key' }, unblock_on: ['failure', 'discarded'] },
    });
    await publishOrdered(bus, { projectId, sourceId: source._id }, 300, 10);
    await waitFor('every message on the broker', () => missing(got, 300).length === 0, { timeoutMs: 30_000 });
    expect(outOfOrder(got)).toEqual([]);
    expect(await store.ordering.ofEndpoint(projectId, endpoint._id)).toEqual([]);
  });
});
