import type { Bus, DeliveryMessage, MetaMessage, Publisher, RetryMessage } from '@hookrail/bus';
import { newId, newProjectId } from '@hookrail/domain';
import type { RunningService } from '@hookrail/runtime';
import type { Store } from '@hookrail/store';
import {
  connectTestStore,
  startTestService,
  testBus,
  testConfig,
  uniquePrefix,
  waitFor,
} from '@hookrail/testkit';
import { definition } from './service';

const prefix = uniquePrefix('rs');
const PROJECT = newProjectId();
let store: Store;
let bus: Bus;
let publisher: Publisher;
const replicas: RunningService[] = [];
const fired: { msg: DeliveryMessage; at: number }[] = [];
const metas: MetaMessage[] = [];

/**
 * The periodic re-read of MongoDB: the safety net that fires what a replica did not queue itself.
 * Half of it bounds "when due" and "at once": seconds of room for a busy host's Kafka and MongoDB,
 * while an entry left to the rescan waits up to all of it. Short enough for the orphans' test.
 */
const RESCAN_MS = 10_000;
/** Entries due within this of their message wait in memory unwritten; later ones are written. */
const HOLD_WITHIN_MS = 1000;

const startReplica = async () => {
  const svc = await startTestService(
    definition(testConfig('retry-scheduler', { HOOKRAIL_KAFKA_TOPIC_PREFIX: prefix }), {
      rescanIntervalMs: RESCAN_MS,
      holdWithinMs: HOLD_WITHIN_MS,
    }),
  );
  replicas.push(svc);
  return svc;
};

const retry = (over: Partial<RetryMessage> = {}): RetryMessage => ({
  delivery_id: newId(),
  project_id: PROJECT,
  endpoint_id: newId(),
  event_id: newId(),
  due_at: new Date(Date.now() + 1000).toISOString(),
  reason: 'failed',
  ...over,
});

const firedFor = (id: string) => fired.filter((f) => f.msg.delivery_id === id);

beforeAll(async () => {
  store = await connectTestStore();
  bus = testBus(prefix);
  await bus.ensureTopics();
  publisher = await bus.connectPublisher();
  await bus.consume('observer', {
    topic: 'deliveries',
    handle: async (msg) => void fired.push({ msg, at: Date.now() }),
  });
  await bus.consume('meta-observer', { topic: 'meta', handle: async (msg) => void metas.push(msg) });
  await startReplica();
}, 90_000);

afterAll(async () => {
  await Promise.all(replicas.map((r) => r.stop()));
  await bus.close();
  await store.close();
});

describe('retry-scheduler', () => {
  it('fires a retry as a DeliveryMessage when it is due, not before, and deletes its entry', async () => {
    const dueAt = Date.now() + HOLD_WITHIN_MS + 1500;
    const msg = retry({ due_at: new Date(dueAt).toISOString() });
    await publisher.publish('retries', [msg]);
    const got = await waitFor('the retry to fire', () => firedFor(msg.delivery_id)[0], { timeoutMs: 10_000 });
    expect(got.at).toBeGreaterThanOrEqual(dueAt);
    // Late by its timer and one way through Kafka, which a busy host stretches; not left to a rescan.
    expect(got.at - dueAt).toBeLessThan(RESCAN_MS / 2);
    expect(got.msg).toEqual({
      delivery_id: msg.delivery_id,
      project_id: msg.project_id,
      endpoint_id: msg.endpoint_id,
      event_id: msg.event_id,
      reason: 'retry',
      due_at: new Date(dueAt).toISOString(),
    });
    await waitFor('the entry to be deleted', async () => {
      const left = await store.schedules.countForTarget(msg.delivery_id);
      return left === 0;
    });
  });

  it('holds a retry due soon in memory without writing it, and fires it when due', async () => {
    const dueAt = Date.now() + 700;
    const msg = retry({ due_at: new Date(dueAt).toISOString() });
    await publisher.publish('retries', [msg]);
    const writes: number[] = [];
    const got = await waitFor('the held retry to fire', async () => {
      writes.push(await store.schedules.countForTarget(msg.delivery_id));
      return firedFor(msg.delivery_id)[0];
    });
    expect(got.at).toBeGreaterThanOrEqual(dueAt);
    expect(writes.length).toBeGreaterThan(0);
    expect(writes.every((n) => n === 0)).toBe(true);
  });

  it('fires an already overdue retry at once', async () => {
    const msg = retry({ due_at: new Date(Date.now() - 60_000).toISOString() });
    const t0 = Date.now();
    await publisher.publish('retries', [msg]);
    const got = await waitFor('the overdue retry', () => firedFor(msg.delivery_id)[0]);
    // Two ways through Kafka and a MongoDB write, which a busy host stretches; not left to a rescan.
    expect(got.at - t0).toBeLessThan(RESCAN_MS / 2);
  });

  it('fires a redelivered retry message once', async () => {
    const msg = retry({ due_at: new Date(Date.now() + 800).toISOString() });
    await publisher.publish('retries', [msg, msg]);
    await publisher.publish('retries', [msg]);
    await waitFor('the retry', () => firedFor(msg.delivery_id)[0]);
    await new Promise((r) => setTimeout(r, 1000));
    expect(firedFor(msg.delivery_id)).toHaveLength(1);
  });

  it('lets a later retry message for the same delivery replace the earlier one', async () => {
    const first = retry({ due_at: new Date(Date.now() + 800).toISOString() });
    const laterDue = Date.now() + 2500;
    const second = { ...first, due_at: new Date(laterDue).toISOString(), reason: 'rate_limited' as const };
    await publisher.publish('retries', [first]);
    await publisher.publish('retries', [second]);
    const got = await waitFor('the replacement to fire', () => firedFor(first.delivery_id)[0], {
      timeoutMs: 10_000,
    });
    expect(got.at).toBeGreaterThanOrEqual(laterDue);
    await new Promise((r) => setTimeout(r, 500));
    expect(firedFor(first.delivery_id)).toHaveLength(1);
  });

  it('sends a meta-event retry back to the meta topic', async () => {
    const msg = retry({ kind: 'meta', meta_event_type: 'endpoint.disabled', event_id: undefined });
    await publisher.publish('retries', [msg]);
    const got = await waitFor('the meta retry', () => metas.find((m) => m.meta_event_id === msg.delivery_id));
    expect(got).toMatchObject({ project_id: msg.project_id, event_type: 'endpoint.disabled' });
    expect(firedFor(msg.delivery_id)).toHaveLength(0);
  });

  it('fires entries a crashed replica left in MongoDB once their partition is owned again', async () => {
    // As a replica that wrote these entries and died before firing them would have left them.
    const now = Date.now();
    const orphans = [0, 1, 2].map((partition) => ({
      _id: `delivery:${newId()}@${now}`,
      shard: `${prefix}/${partition}`,
      kind: 'delivery' as const,
      target_id: newId(),
      project_id: PROJECT,
      endpoint_id: newId(),
      event_id: newId(),
      meta_event_type: null,
      due_at: new Date(now - 5000),
      reason: 'failed',
      created_at: new Date(now - 6000),
    }));
    await store.schedules.insertMany(orphans);
    // The running replica picks them up at its periodic rescan; a new replica on assignment.
    for (const o of orphans)
      await waitFor('the orphan to fire', () => firedFor(o.target_id)[0], { timeoutMs: RESCAN_MS + 15_000 });
    expect(orphans.map((o) => firedFor(o.target_id).length)).toEqual([1, 1, 1]);
  });

  it('shares the work between two replicas and never fires an entry twice', async () => {
    await startReplica();
    const due = Date.now() + 4000;
    const msgs = Array.from({ length: 300 }, (_, i) =>
      retry({ due_at: new Date(due + i * 5).toISOString() }),
    );
    await publisher.publish('retries', msgs);
    await waitFor('every retry to fire', () => msgs.every((m) => firedFor(m.delivery_id).length > 0), {
      timeoutMs: 30_000,
      intervalMs: 200,
    });
    await new Promise((r) => setTimeout(r, 1500));
    const counts = msgs.map((m) => firedFor(m.delivery_id).length);
    expect(counts.filter((c) => c !== 1)).toEqual([]);
    const late = msgs.map((m) => firedFor(m.delivery_id)[0].at - Date.parse(m.due_at));
    expect(Math.min(...late)).toBeGreaterThanOrEqual(0);
  }, 60_000);
});
