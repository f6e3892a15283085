import { setTimeout as sleep } from 'node:timers/promises';
import { asProjectId } from '@hookrail/domain';
import { createLogger, Metrics } from '@hookrail/telemetry';
import { TEST_KAFKA_BROKERS, uniquePrefix, waitFor } from '@hookrail/testkit';
import { Bus } from './bus';
import type { MetaMessage } from './messages';

jest.setTimeout(90_000);

/**
 * The consumer-lag gauge on real Kafka: messages waiting behind a handler that has not finished
 * show as lag of their partition, and the lag returns to 0 once they are handled. Then the
 * request counters of the same run.
 */
describe('consumer lag', () => {
  const metrics = new Metrics('tests', { defaultMetrics: false });
  const bus = new Bus(
    {
      brokers: TEST_KAFKA_BROKERS,
      clientId: 'tests',
      topicPrefix: uniquePrefix('lag'),
      partitions: 1,
      replicationFactor: 1,
    },
    { logger: createLogger({ service: 'tests', level: 'silent' }), metrics },
  );
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let handled = 0;

  afterAll(() => bus.close());

  const lagOf = async (): Promise<number | undefined> => {
    const gauge = await metrics.registry.getSingleMetric('hookrail_kafka_consumer_lag')?.get();
    return gauge?.values.find((v) => v.labels.topic === 'meta' && v.labels.partition === '0')?.value;
  };

  it('counts the messages of a partition not yet finished, and drops to 0 when they are', async () => {
    await bus.ensureTopics();
    let assigned = false;
    await bus.consume('lag-test', {
      topic: 'meta',
      concurrency: 1,
      onAssignment: () => (assigned = true),
      handle: async (_m: MetaMessage) => {
        await released;
        handled++;
      },
    });
    await waitFor('consumer joined', () => assigned, { timeoutMs: 30_000 });
    const publisher = await bus.connectPublisher();
    const at = new Date().toISOString();
    await publisher.publish(
      'meta',
      Array.from({ length: 25 }, (_, i) => ({
        project_id: asProjectId('01HZZZZZZZZZZZZZZZZZZZZZZZ'),
        event_type: 'endpoint.created' as const,
        data: { i },
        occurred_at: at,
      })),
    );
    // The first message is held in the handler: all 25 are behind the commit point.
    expect(await waitFor('lag seen', async () => ((await lagOf()) === 25 ? 25 : undefined))).toBe(25);

    await sleep(300);
    release();
    await waitFor('all handled', () => handled === 25);
    await waitFor('lag back to 0', async () => (await lagOf()) === 0);
    expect(await lagOf()).toBe(0);
  });

  it("measures each message's age when its handler starts, so the 24 that waited for a slot are older", async () => {
    const age = await metrics.registry.getSingleMetric('hookrail_bus_message_age_seconds')?.get();
    const meta = (le: number | '+Inf') =>
      age?.values.find((v) => v.labels.topic === 'meta' && v.labels.le === le)?.value;
    expect(meta('+Inf')).toBe(25);
    // They waited behind the first message's 300 ms and more; the first may have started at once.
    expect(meta(0.25)).toBeLessThanOrEqual(1);
  });

  it("counts each client's requests to Kafka by API", async () => {
    const count = async (client: string, api: string) => {
      const requests = await metrics.registry.getSingleMetric('hookrail_kafka_requests_total')?.get();
      return requests?.values.find((v) => v.labels.client === client && v.labels.api === api)?.value ?? 0;
    };
    // The 25 messages above went in one produce request; the consumer fetched them and, a moment
    // after they were handled, committed them.
    await waitFor('offsets committed', async () => (await count('consumer:lag-test', 'OffsetCommit')) > 0);
    expect(await count('producer', 'Produce')).toBeGreaterThanOrEqual(1);
    expect(await count('consumer:lag-test', 'Fetch')).toBeGreaterThanOrEqual(1);
    expect(await count('consumer:lag-test', 'Produce')).toBe(0);
  });
});
