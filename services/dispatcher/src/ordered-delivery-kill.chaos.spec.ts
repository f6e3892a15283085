import type { RunningService } from '@hookrail/runtime';
import type { Store } from '@hookrail/store';
import {
  connectTestStore,
  startServiceProcess,
  startTestService,
  testBus,
  testConfig,
  uniquePrefix,
  waitFor,
  type ServiceProcess,
} from '@hookrail/testkit';
import { definition as retrySchedulerDefinition } from '../../retry-scheduler/src/service';
import { keyOrderedTarget, missing, outOfOrder, publishOrdered } from './testing/ordered-load';

jest.setTimeout(240_000);

/**
 * docs/ordered-delivery.md: the blocked state is durable. The dispatcher, a process of its own, is
 * SIGKILLed while keys are blocked and deliveries held, and started again: every event still
 * arrives, and no key's successful arrivals go backwards (a duplicate only ever of the newest).
 * The same when a second dispatcher joins the group mid-run and the first then leaves.
 */
describe('ordered delivery through a SIGKILL of the dispatcher and through rebalances', () => {
  const prefix = uniquePrefix('ordkill');
  const bus = testBus(prefix);
  const env = {
    HOOKRAIL_KAFKA_TOPIC_PREFIX: prefix,
    HOOKRAIL_KAFKA_SESSION_TIMEOUT_MS: '6000',
    HOOKRAIL_ALLOW_PRIVATE_TARGETS: 'true',
    HOOKRAIL_HOUSEKEEPING_INTERVAL_MS: '86400000',
    HOOKRAIL_LOG_LEVEL: 'warn',
  };
  const closers: { close(): Promise<void> }[] = [];
  let store: Store;
  let scheduler: RunningService;
  let dispatcher: ServiceProcess | undefined;
  let second: ServiceProcess | undefined;

  beforeAll(async () => {
    store = await connectTestStore();
    await bus.ensureTopics();
    scheduler = await startTestService(retrySchedulerDefinition(testConfig('retry-scheduler', env)));
  });
  afterAll(async () => {
    dispatcher?.child.kill('SIGKILL');
    second?.child.kill('SIGKILL');
    await scheduler?.stop();
    await Promise.all(closers.map((c) => c.close()));
    await bus.close();
    await store?.close();
  });

  it('1,000 events over 50 keys: in order per key, none lost, no successful duplicate out of order', async () => {
    const { receiver, arrivals, target } = await keyOrderedTarget(store);
    closers.push(receiver);
    dispatcher = await startServiceProcess('dispatcher', env);
    await publishOrdered(bus, target, 1000, 50);
    await waitFor('a third delivered', () => arrivals.filter((a) => a.ok).length >= 330, {
      timeoutMs: 60_000,
      intervalMs: 100,
    });
    const blockedAtKill = (await store.ordering.ofEndpoint(target.projectId, target.endpointId)).length;
    dispatcher.child.kill('SIGKILL');
    await dispatcher.exited;
    dispatcher = await startServiceProcess('dispatcher', env);

    await waitFor('every event delivered', () => missing(arrivals, 1000).length === 0, {
      timeoutMs: 90_000,
      intervalMs: 250,
    }).catch((err: Error) => {
      throw new Error(`${err.message}: missing ${missing(arrivals, 1000).slice(0, 20).join(', ')}`);
    });
    expect(blockedAtKill).toBeGreaterThan(0);
    expect(outOfOrder(arrivals)).toEqual([]);
    const duplicates = arrivals.filter((a) => a.ok).length - 1000;
    console.log(
      `ordered SIGKILL: ${blockedAtKill} keys blocked at the kill, ${duplicates} duplicate successes`,
    );
  });
  it('1,000 events over 50 keys through two rebalances (a second dispatcher joins, the first leaves): in order per key, none lost', async () => {
    const { receiver, arrivals, target } = await keyOrderedTarget(store);
    closers.push(receiver);
    dispatcher ??= await startServiceProcess('dispatcher', env);
    await publishOrdered(bus, target, 1000, 50);
    await waitFor('a third delivered', () => arrivals.filter((a) => a.ok).length >= 330, {
      timeoutMs: 60_000,
      intervalMs: 100,
    });
    // The endpoint's partition of the deliveries topic (and the project's of the events topic)
    // ends on the second process at the latest when the first leaves.
    second = await startServiceProcess('dispatcher', env);
    await waitFor('two thirds delivered', () => arrivals.filter((a) => a.ok).length >= 660, {
      timeoutMs: 90_000,
      intervalMs: 100,
    });
    dispatcher.child.kill('SIGTERM');
    await dispatcher.exited;
    dispatcher = undefined;

    await waitFor('every event delivered', () => missing(arrivals, 1000).length === 0, {
      timeoutMs: 90_000,
      intervalMs: 250,
    }).catch((err: Error) => {
      throw new Error(`${err.message}: missing ${missing(arrivals, 1000).slice(0, 20).join(', ')}`);
    });
    expect(outOfOrder(arrivals)).toEqual([]);
    console.log(`ordered rebalance: ${arrivals.filter((a) => a.ok).length - 1000} duplicate successes`);
  });
});
