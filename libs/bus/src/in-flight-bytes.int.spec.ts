import { asProjectId } from '@hookrail/domain';
import { createLogger, Metrics } from '@hookrail/telemetry';
import { TEST_KAFKA_BROKERS, uniquePrefix, waitFor } from '@hookrail/testkit';
import { Bus } from './bus';
import type { MetaMessage } from './messages';

jest.setTimeout(90_000);

/**
 * A consumer's in-flight bound in bytes, on real Kafka: large messages are handled a few at a time
 * even though the count bound would take them all at once, small ones many at a time, and a
 * message larger than the whole bound is still handled (alone).
 */
describe('in-flight bytes', () => {
  const MiB = 1024 * 1024;
  const bus = new Bus(
    {
      brokers: TEST_KAFKA_BROKERS,
      clientId: 'tests',
      topicPrefix: uniquePrefix('inflight'),
      partitions: 1,
      replicationFactor: 1,
    },
    {
      logger: createLogger({ service: 'tests', level: 'silent' }),
      metrics: new Metrics('tests', { defaultMetrics: false }),
    },
  );
  const handled: string[] = [];
  let now = 0;
  let most = 0;
  let hold = 150;

  afterAll(() => bus.close());

  const meta = (tag: string, bytes: number): MetaMessage => ({
    project_id: asProjectId('01HZZZZZZZZZZZZZZZZZZZZZZZ'),
    event_type: 'endpoint.created',
    data: { tag, pad: 'x'.repeat(bytes) },
    occurred_at: new Date().toISOString(),
  });

  beforeAll(async () => {
    await bus.ensureTopics();
    let assigned = false;
    await bus.consume('inflight-bytes', {
      topic: 'meta',
      concurrency: 100,
      maxInFlightBytes: 3 * MiB,
      onAssignment: () => (assigned = true),
      handle: async (m: MetaMessage) => {
        most = Math.max(most, ++now);
        await new Promise((r) => setTimeout(r, hold));
        now--;
        handled.push((m.data as { tag: string }).tag);
      },
    });
    await waitFor('consumer joined', () => assigned, { timeoutMs: 30_000 });
  });

  it('handles 1.2 MiB messages two at a time under a 3 MiB bound, though 100 would fit the count', async () => {
    const publisher = await bus.connectPublisher();
    await publisher.publish(
      'meta',
      Array.from({ length: 6 }, (_, i) => meta(`large-${i}`, 1.2 * MiB)),
    );
    await waitFor('six handled', () => handled.length === 6);
    expect(most).toBe(2);
  });

  it('handles small messages many at a time under the same bound', async () => {
    most = 0;
    handled.length = 0;
    hold = 500;
    const publisher = await bus.connectPublisher();
    await publisher.publish(
      'meta',
      Array.from({ length: 40 }, (_, i) => meta(`small-${i}`, 1000)),
    );
    await waitFor('forty handled', () => handled.length === 40);
    expect(most).toBeGreaterThan(10);
  });

  it('handles a message larger than the whole bound, alone', async () => {
    most = 0;
    handled.length = 0;
    hold = 500;
    const publisher = await bus.connectPublisher();
    // Two publishes, in order: the publisher sends a message over its request size on its own.
    await publisher.publish('meta', [meta('huge', 5 * MiB)]);
    await publisher.publish('meta', [meta('after', 1000)]);
    await waitFor('both handled', () => handled.length === 2);
    expect(handled).toEqual(['huge', 'after']);
    expect(most).toBe(1);
  });
});
