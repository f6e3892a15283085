import { asProjectId, newId } from '@hookrail/domain';
import { createLogger, Metrics } from '@hookrail/telemetry';
import { TEST_KAFKA_BROKERS, uniquePrefix, waitFor } from '@hookrail/testkit';
import { Bus } from './bus';
import type { ConfigBarrier, EventMessage } from './messages';

jest.setTimeout(90_000);

const PARTITIONS = 3;

/**
 * Configuration barriers on real Kafka: an announced change reaches every partition of the
 * dispatcher's topics, and every message published after the announcement returned is handled
 * after its partition's barrier was applied; a consumer without `onBarrier` never sees one.
 */
describe('configuration barriers', () => {
  const metrics = new Metrics('tests', { defaultMetrics: false });
  const bus = new Bus(
    {
      brokers: TEST_KAFKA_BROKERS,
      clientId: 'tests',
      topicPrefix: uniquePrefix('barrier'),
      partitions: PARTITIONS,
      replicationFactor: 1,
    },
    {
      logger: createLogger({ service: 'tests', level: 'silent' }),
      metrics,
    },
  );
  const projectId = asProjectId(newId());
  const event = (n: number): EventMessage => ({
    event_id: newId(),
    project_id: projectId,
    event_type: 'test',
    target: { mode: 'broadcast' },
    data: { n },
    raw: JSON.stringify({ n }),
    headers: {},
    accepted_at: new Date().toISOString(),
  });

  afterAll(() => bus.close());

  it('are applied on every partition before any later message of it', async () => {
    await bus.ensureTopics();
    const barriers: ConfigBarrier[] = [];
    let token = 'initial';
    /** The token the handler saw, per event number. */
    const seen = new Map<number, string>();
    const delivered: string[] = [];
    let joined = 0;
    await bus.consume('barrier-events', {
      topic: 'events',
      concurrency: 100,
      onAssignment: () => joined++,
      onBarrier: (b) => {
        barriers.push(b);
        token = b.token;
      },
      handle: async (m) => void seen.set((m.data as { n: number }).n, token),
    });
    await bus.consume('barrier-deliveries', {
      topic: 'deliveries',
      onAssignment: () => joined++,
      handle: async (m) => void delivered.push(m.delivery_id),
    });
    await waitFor('consumers joined', () => joined >= 2, { timeoutMs: 30_000 });

    const publisher = await bus.connectPublisher();
    await publisher.publish(
      'events',
      Array.from({ length: 30 }, (_, n) => event(n)),
    );
    const announced = await bus.announceConfigChange(projectId);
    await publisher.publish(
      'events',
      Array.from({ length: 30 }, (_, n) => event(100 + n)),
    );
    await publisher.publish('deliveries', [
      { delivery_id: 'd1', project_id: projectId, endpoint_id: 'e1', event_id: 'x', reason: 'initial' },
    ]);

    await waitFor('all events handled', () => seen.size === 60, { timeoutMs: 30_000 });
    expect(barriers).toHaveLength(PARTITIONS);
    expect(barriers.every((b) => b.project_id === projectId && b.token === announced.token)).toBe(true);
    // Every event published after the announcement returned was handled under its token.
    for (let n = 100; n < 130; n++) expect(seen.get(n)).toBe(announced.token);
    // The deliveries topic got its barriers too, and a consumer without onBarrier skips them.
    await waitFor('the delivery handled', () => delivered.length === 1, { timeoutMs: 30_000 });
    const counted = await metrics.registry.getSingleMetric('hookrail_bus_messages_total')?.get();
    const passed = counted?.values.find(
      (v) => v.labels.topic === 'deliveries' && v.labels.outcome === 'barrier',
    );
    expect(passed?.value).toBe(PARTITIONS);
    expect(delivered).toEqual(['d1']);
  });

  it('each announcement carries a fresh token', async () => {
    const a = await bus.announceConfigChange(projectId);
    const b = await bus.announceConfigChange(projectId);
    expect(a.token).not.toBe(b.token);
  });
});
