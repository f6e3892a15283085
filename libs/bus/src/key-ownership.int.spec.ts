import { createLogger, Metrics } from '@hookrail/telemetry';
import { TEST_KAFKA_BROKERS, uniquePrefix, waitFor } from '@hookrail/testkit';
import { Partitioners } from 'kafkajs';
import { Bus } from './bus';
import { KeyOwnership } from './key-ownership';

jest.setTimeout(60_000);

/**
 * KeyOwnership on real Kafka: a member owns exactly the keys a producer puts on its partitions,
 * also after partitions were added to the topic (the group's rejoin assigns again).
 */
describe('KeyOwnership on a topic', () => {
  const prefix = uniquePrefix('ownership');
  const bus = new Bus(
    {
      brokers: TEST_KAFKA_BROKERS,
      clientId: 'tests',
      topicPrefix: prefix,
      partitions: 2,
      replicationFactor: 1,
    },
    {
      logger: createLogger({ service: 'tests', level: 'silent' }),
      metrics: new Metrics('tests', { defaultMetrics: false }),
    },
  );
  const topic = `${prefix}.deliveries`;
  const keys = Array.from({ length: 60 }, (_, i) => `endpoint-${i}`);

  afterAll(() => bus.close());

  /** Where a producer that read the topic's partitions just now puts each key. */
  async function producedPartitions(): Promise<Map<string, number>> {
    const producer = bus.kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    try {
      const placed = new Map<string, number>();
      for (const key of keys) {
        const [meta] = await producer.send({ topic, acks: -1, messages: [{ key, value: 'x' }] });
        placed.set(key, meta.partition);
      }
      return placed;
    } finally {
      await producer.disconnect();
    }
  }

  it('owns the keys the producer puts on its partitions, before and after partitions are added', async () => {
    await bus.ensureTopics();
    const ownership = new KeyOwnership(() => bus.partitioner('deliveries'));

    await ownership.assign([1]);
    const before = await producedPartitions();
    expect(new Set(before.values())).toEqual(new Set([0, 1]));
    expect(keys.filter((k) => ownership.owns(k))).toEqual(keys.filter((k) => before.get(k) === 1));

    const admin = bus.kafka.admin();
    await admin.connect();
    await admin.createPartitions({ topicPartitions: [{ topic, count: 4 }] });
    // The broker serves the new count a moment after the controller accepted it; the consumers'
    // rejoin only happens once they read it, so wait for the metadata to show it.
    await waitFor(
      'the topic metadata to list 4 partitions',
      async () => (await admin.fetchTopicMetadata({ topics: [topic] })).topics[0].partitions.length === 4,
    );
    await admin.disconnect();

    await ownership.assign([1]); // the rejoin after the consumers saw the new partitions
    const after = await producedPartitions();
    expect(new Set(after.values())).toEqual(new Set([0, 1, 2, 3]));
    expect(keys.filter((k) => ownership.owns(k))).toEqual(keys.filter((k) => after.get(k) === 1));
    // Some keys of partition 1 moved: a partition count read once at start would still claim them.
    expect(keys.some((k) => before.get(k) === 1 && after.get(k) !== 1)).toBe(true);
  });
});
