import { setTimeout as sleep } from 'node:timers/promises';
import { newId } from '@hookrail/domain';
import type { Publisher } from '@hookrail/bus';
import type { RunningService } from '@hookrail/runtime';
import type { Store } from '@hookrail/store';
import { RECORD_WRITES } from '@hookrail/toolbox';
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

jest.setTimeout(120_000);

/** The sender's window; no local first sends, so every delivery goes through it. */
const WINDOW = 10;
const EVENTS = 3 * WINDOW;

describe("the sender's window while records wait (docs/isolation.md, Retries on schedule)", () => {
  const prefix = uniquePrefix('sender-window');
  const bus = testBus(prefix);
  let service: RunningService;
  let store: Store;
  let publisher: Publisher;
  let receiver: Receiver;

  beforeAll(async () => {
    store = await connectTestStore();
    service = await startTestService(
      definition(testConfig('dispatcher', { HOOKRAIL_KAFKA_TOPIC_PREFIX: prefix }), {
        scale: { senderConcurrency: WINDOW, maxLocalFirstSends: 0, lanes: false },
      }),
    );
    publisher = await bus.connectPublisher();
    receiver = await startReceiver({ countOnly: true });
  });
  afterAll(async () => {
    await service?.stop();
    await receiver?.close();
    await bus.close();
    await store?.close();
  });

  it('an answered delivery leaves the window while its record waits, up to a window more', async () => {
    const projectId = await makeProject(store);
    const endpoint = await makeEndpoint(store, projectId, { url: `${receiver.url}/ok` });
    const sourceId = newId();
    await makeSubscription(store, projectId, { endpoint_id: endpoint._id, source_id: sourceId });
    // Every record write of this process waits: the dispatcher runs in it and shares the gate.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    void RECORD_WRITES.gate!(() => held);
    const events = Array.from({ length: EVENTS }, () => eventMessage(projectId, { source_id: sourceId }));
    const recorded = () =>
      store.deliveries.listByEvents(
        projectId,
        events.map((e) => e.event_id),
        EVENTS,
      );
    try {
      await publisher.publish('events', events);
      // Held in the window until recorded, only WINDOW would be sent; out of it, WINDOW more.
      await waitFor('two windows of deliveries sent', () => receiver.count() >= 2 * WINDOW, {
        timeoutMs: 30_000,
      });
      await sleep(2000);
      expect(receiver.count()).toBe(2 * WINDOW);
      expect(await recorded()).toEqual([]);
    } finally {
      release();
    }
    await waitFor(
      'every delivery recorded as Success',
      async () => {
        const ds = await recorded();
        return ds.length === EVENTS && ds.every((d) => d.status === 'Success');
      },
      { timeoutMs: 30_000 },
    );
    expect(receiver.count()).toBe(EVENTS);
  });
});
