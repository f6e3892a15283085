import { setTimeout as sleep } from 'node:timers/promises';
import { newId, type ProjectId } from '@hookrail/domain';
import type { RunningService } from '@hookrail/runtime';
import type { Publisher } from '@hookrail/bus';
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
import { definition as retrySchedulerDefinition } from '../../retry-scheduler/src/service';
import { definition, type DispatcherOptions } from './service';

jest.setTimeout(180_000);

/**
 * The dispatcher's windows at a twentieth of their size (sender 1,000 → 50, router's local first
 * sends 500 → 25, lanes in proportion), so that a few hanging endpoints at tens of events/s fill
 * them as hundreds/s fill the real ones (issue 67: a third of 300/s hanging for 10 s).
 */
// maxDetached small, so that both ways out of the window run: waiting in memory, then parking.
const LANES = {
  perEndpoint: 10,
  slowPerEndpoint: 3,
  slowLane: 9,
  probeLane: 15,
  slowMs: 500,
  maxDetached: 20,
};
const SCALE: DispatcherOptions['scale'] = { senderConcurrency: 50, maxLocalFirstSends: 25, lanes: LANES };
const RATE = 45; // events/s, spread evenly over all endpoints of a phase
const SECONDS = 10;
const HTTP_TIMEOUT_S = 5;
/** A thousand hanging endpoints, at the test's scale. */
const HANGING_ALL = 50;
/**
 * Healthy p99 with a third of the traffic to hanging endpoints, as a multiple of the baseline's.
 * Without the lanes this measured 120x (p99 5.9 s against 49 ms: the sender's window full of
 * requests waiting their 5 s time-out); with them 0.1-0.6x. The target, 3x, is the
 * bench's (bench/isolation.bench.ts); here, the p99 of a few hundred deliveries on a shared 2-core
 * host swings several-fold from run to run, so the bound is 10x: well between the two.
 */
const MAX_P99_RATIO = 10;
/** New endpoints that hang, ahead of a new one that answers: fewer than the probes, more than the new lane. */
const WALL = 12;

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

describe('isolation: endpoints that hang do not slow the others (docs/isolation.md)', () => {
  const prefix = uniquePrefix('isolation');
  const bus = testBus(prefix);
  const services: RunningService[] = [];
  let store: Store;
  let publisher: Publisher;
  let healthy: Receiver;
  let hanging: Receiver;
  /** Healthy deliveries: event id → when received. */
  const received = new Map<string, number>();

  beforeAll(async () => {
    store = await connectTestStore();
    const env = { HOOKRAIL_KAFKA_TOPIC_PREFIX: prefix };
    services.push(
      await startTestService(definition(testConfig('dispatcher', env), { scale: SCALE })),
      await startTestService(retrySchedulerDefinition(testConfig('retry-scheduler', env))),
    );
    publisher = await bus.connectPublisher();
    healthy = await startReceiver({
      countOnly: true,
      onRequest: (r) =>
        void (
          received.has(r.headers['x-hookrail-event-id']) ||
          received.set(r.headers['x-hookrail-event-id'], r.receivedAt)
        ),
    });
    hanging = await startReceiver({ hang: true, countOnly: true });
  });
  afterAll(async () => {
    await Promise.all(services.map((s) => s.stop()));
    await Promise.all([healthy?.close(), hanging?.close()]);
    await bus.close();
    await store?.close();
  });

  /** A fresh project with `good` healthy and `bad` hanging endpoints, each on its own source. */
  async function project(good: number, bad: number) {
    // The breaker would stop sending to the hanging endpoints after 10 time-outs: loosened, so
    // the phase measures the lanes, not the breaker.
    const projectId = await makeProject(store, {
      strategy: { type: 'linear', duration: 1, retry_count: 1 },
      circuit_breaker: { consecutive_failures: 100_000, min_requests: 100_000 },
    });
    const endpoint = async (url: string) => {
      const ep = await makeEndpoint(store, projectId, { url, http_timeout: HTTP_TIMEOUT_S });
      const sourceId = newId();
      await makeSubscription(store, projectId, { endpoint_id: ep._id, source_id: sourceId });
      return sourceId;
    };
    const goodSources = await Promise.all(Array.from({ length: good }, () => endpoint(`${healthy.url}/ok`)));
    const badSources = await Promise.all(Array.from({ length: bad }, () => endpoint(`${hanging.url}/hang`)));
    return { projectId, goodSources, badSources };
  }

  /** RATE events/s for SECONDS, round-robin over the sources; the healthy ones' send times. */
  async function offer(p: Awaited<ReturnType<typeof project>>, seconds = SECONDS) {
    const sources = [
      ...p.goodSources.map((s) => ({ s, good: true })),
      ...p.badSources.map((s) => ({ s, good: false })),
    ];
    const sentAt = new Map<string, number>();
    const badIds: string[] = [];
    const perTick = RATE / 10;
    for (let tick = 0, n = 0; tick < seconds * 10; tick++) {
      const due = Date.now() + 100;
      const batch = Array.from({ length: perTick }, () => sources[n++ % sources.length]);
      const messages = batch.map(({ s }) => eventMessage(p.projectId, { source_id: s }));
      const at = Date.now();
      messages.forEach((m, i) => (batch[i].good ? sentAt.set(m.event_id, at) : badIds.push(m.event_id)));
      await publisher.publish('events', messages);
      await new Promise((r) => setTimeout(r, Math.max(0, due - Date.now())));
    }
    return { sentAt, badIds };
  }

  async function healthyLatencies(sentAt: Map<string, number>): Promise<number[]> {
    await waitFor(
      'every healthy delivery received',
      () => [...sentAt.keys()].every((id) => received.has(id)),
      {
        timeoutMs: 60_000,
        intervalMs: 200,
      },
    );
    return [...sentAt].map(([id, at]) => received.get(id)! - at).sort((a, b) => a - b);
  }

  const reasonsOf = async (projectId: ProjectId, ids: string[]) =>
    (await store.deliveries.listByEvents(projectId, ids, ids.length)).map((d) => d.status_reason ?? '');

  // First: the later tests leave the new lane held by their hanging endpoints for a while.
  it('a delivery that waited for its slot is not sent once its project was deleted meanwhile', async () => {
    const own = await startReceiver({ hang: true, countOnly: true });
    try {
      const projectId = await makeProject(store, {
        strategy: { type: 'linear', duration: 1, retry_count: 1 },
        circuit_breaker: { consecutive_failures: 100_000, min_requests: 100_000 },
      });
      const ep = await makeEndpoint(store, projectId, {
        url: `${own.url}/hang`,
        http_timeout: HTTP_TIMEOUT_S,
      });
      const sourceId = newId();
      await makeSubscription(store, projectId, { endpoint_id: ep._id, source_id: sourceId });
      // More than the endpoint's 10 attempts: the rest wait for its slots (up to maxDetached), as
      // do all of them while the new lane is held by earlier tests' hanging endpoints.
      await publisher.publish(
        'events',
        Array.from({ length: 25 }, () => eventMessage(projectId, { source_id: sourceId })),
      );
      await sleep(3000); // routed, and each sent or waiting for a slot
      await store.projects.softDelete(projectId);
      await bus.announceConfigChange(projectId);
      await sleep(1000); // the barrier reaches the dispatcher
      const sent = own.count();
      // The attempts running time out and free their slots: the deliveries waiting for them
      // find their project gone instead of being sent.
      await sleep((HTTP_TIMEOUT_S + 3) * 1000);
      expect(own.count()).toBe(sent);
    } finally {
      await own.close();
    }
  }, 60_000);

  it("a new endpoint that answers is not kept behind new endpoints that hang: its first attempt is a probe past the new lane's cap", async () => {
    const wall = await startReceiver({ hang: true, countOnly: true });
    try {
      const projectId = await makeProject(store, {
        strategy: { type: 'linear', duration: 1, retry_count: 1 },
        circuit_breaker: { consecutive_failures: 100_000, min_requests: 100_000 },
      });
      const source = async (url: string) => {
        const ep = await makeEndpoint(store, projectId, { url, http_timeout: HTTP_TIMEOUT_S });
        const sourceId = newId();
        await makeSubscription(store, projectId, { endpoint_id: ep._id, source_id: sourceId });
        return sourceId;
      };
      const [before, after] = [await source(`${healthy.url}/ok`), await source(`${healthy.url}/ok`)];
      // Fewer hanging endpoints than probes, two deliveries each: their first attempts take
      // probes, their second ones the whole new lane (9), and the rest wait.
      const wallSources = await Promise.all(Array.from({ length: WALL }, () => source(`${wall.url}/hang`)));
      const events = (sourceId: string, n: number) =>
        Array.from({ length: n }, () => eventMessage(projectId, { source_id: sourceId }));
      const offerTo = async (sourceId: string) => {
        const messages = events(sourceId, 10);
        const at = Date.now();
        await publisher.publish('events', messages);
        return healthyLatencies(new Map(messages.map((m) => [m.event_id, at])));
      };
      const baseline = await offerTo(before); // a new endpoint, nothing hanging
      await publisher.publish(
        'events',
        wallSources.flatMap((s) => events(s, 2)),
      );
      const held = Math.min(WALL, LANES.probeLane) + LANES.slowLane; // their probes and the new lane
      await waitFor('the probes and the new lane held by hanging endpoints', () => wall.pending() >= held, {
        timeoutMs: HTTP_TIMEOUT_S * 1000,
        intervalMs: 20,
      });
      const behindWall = await offerTo(after);
      // Without probes, the new endpoint's first attempt waited for a place in the new lane,
      // which only a hanging attempt's time-out frees: received after the wall's first time-out.
      const timedOut = wall.abandoned();
      console.log(
        `a new endpoint's latency ms: alone p50 ${pct(baseline, 50)} max ${baseline.at(-1)}; ` +
          `behind ${wall.pending()} hanging attempts p50 ${pct(behindWall, 50)} max ${behindWall.at(-1)}`,
      );
      expect(timedOut).toBe(0);
    } finally {
      await wall.close();
    }
  }, 60_000);

  it('healthy p99 with a third of the traffic to hanging endpoints stays within 10x its baseline (120x without lanes); nothing is lost', async () => {
    // Unmeasured: the first deliveries of a process open its connections and warm its code.
    await healthyLatencies((await offer(await project(6, 0), 3)).sentAt);
    const base = await offer(await project(6, 0));
    const baseline = await healthyLatencies(base.sentAt);
    const p = await project(6, 3);
    const bad = await offer(p);
    const withBad = await healthyLatencies(bad.sentAt);
    const [b99, w99] = [pct(baseline, 99), pct(withBad, 99)];
    console.log(
      `healthy latency ms: baseline p50 ${pct(baseline, 50)} p99 ${b99}; a third hanging p50 ${pct(withBad, 50)} p99 ${w99} (${(w99 / b99).toFixed(1)}x)`,
    );
    expect(w99 / Math.max(1, b99)).toBeLessThanOrEqual(MAX_P99_RATIO);
    // The hanging endpoints' deliveries were parked (no attempt spent), not dropped: every one is
    // recorded, as parked, retried or failed after its time-outs.
    await waitFor(
      'every hanging delivery recorded',
      async () => (await reasonsOf(p.projectId, bad.badIds)).length === bad.badIds.length,
      {
        timeoutMs: 60_000,
        intervalMs: 500,
      },
    );
    expect(await reasonsOf(p.projectId, bad.badIds)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^held: (endpoint at its cap|slow lane full)/)]),
    );
  });

  it('when every endpoint hangs, at most the slow and new lanes wait on them, never the whole sender window', async () => {
    const p = await project(0, HANGING_ALL);
    let most = 0;
    const watch = setInterval(() => (most = Math.max(most, hanging.pending())), 20);
    try {
      const { badIds } = await offer(p);
      console.log(`every endpoint hanging: at most ${most} requests waiting on them at once`);
      // The slow and new lanes' 2 x 9 and the 15 probes (the receiver sees a timed-out request end
      // a moment after the sender frees its slot, hence the room): never the sender's window of
      // 50, which is what they took without lanes (75: the window and the router's local slots).
      expect(most).toBeLessThanOrEqual(3 * LANES.slowLane + LANES.probeLane);
      expect(most).toBeLessThan(SCALE!.senderConcurrency);
      await waitFor(
        'every delivery recorded',
        async () => (await reasonsOf(p.projectId, badIds)).length === badIds.length,
        {
          timeoutMs: 60_000,
          intervalMs: 500,
        },
      );
    } finally {
      clearInterval(watch);
    }
  });
});
