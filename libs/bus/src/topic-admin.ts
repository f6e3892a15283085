import type { Kafka, PartitionMetadata } from 'kafkajs';
import type { Partitioner } from './key-ownership';
import { MAX_MESSAGE_BYTES, PARTITION_COUNT_TTL_MS, type BusOptions } from './kafka-client';
import { partitionOfKey } from './key-partitioner';
import { deadLetterTopicName, TOPIC_KEYS, topicName, type TopicKey } from './topics';

/** The catalog's topics on the cluster: their names, creation, partitions and the cluster's id. */
export class TopicAdmin {
  private cluster?: Promise<string>;
  private readonly partitionCounts = new Map<string, { count: Promise<number>; at: number }>();

  constructor(
    private readonly kafka: Kafka,
    private readonly options: Pick<BusOptions, 'topicPrefix' | 'partitions' | 'replicationFactor'>,
  ) {}

  topic(key: TopicKey): string {
    return topicName(this.options.topicPrefix, key);
  }

  deadLetterTopic(key: TopicKey): string {
    return deadLetterTopicName(this.options.topicPrefix, key);
  }

  /** Creates every catalog topic that does not exist yet (idempotent; safe from many replicas at once). */
  async ensureTopics(): Promise<void> {
    // Right after a create, metadata can still say "does not host this topic-partition" on a
    // busy broker: retriable errors get a few more tries before start-up gives up.
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.createMissingTopics();
      } catch (err) {
        if (!(err as { retriable?: boolean }).retriable || attempt >= 4) throw err;
        await new Promise((r) => setTimeout(r, 500 * (attempt + 1)));
      }
    }
  }

  private async createMissingTopics(): Promise<void> {
    await this.withAdmin(async (admin) => {
      const all = TOPIC_KEYS.flatMap((k) => [this.topic(k), this.deadLetterTopic(k)]);
      const existing = new Set(await admin.listTopics());
      const missing = all.filter((t) => !existing.has(t));
      if (missing.length > 0) {
        try {
          await admin.createTopics({
            waitForLeaders: true,
            topics: missing.map((topic) => ({
              topic,
              numPartitions: this.options.partitions,
              replicationFactor: this.options.replicationFactor,
              configEntries: [{ name: 'max.message.bytes', value: String(MAX_MESSAGE_BYTES) }],
            })),
          });
        } catch (err) {
          // Another replica created them first.
          if ((err as { type?: string }).type !== 'TOPIC_ALREADY_EXISTS') throw err;
        }
      }
      // Listed is not yet served: a create retried after its wait for leaders failed, or made by
      // another replica, can return before the broker's metadata names every topic, and a
      // consumer subscribing then fails ("does not host this topic-partition"). Until it does,
      // this throws a retriable error and ensureTopics tries again.
      await admin.fetchTopicMetadata({ topics: all });
    });
  }

  /** A topic's partition count, read from Kafka at most once a PARTITION_COUNT_TTL_MS. */
  partitionCount(topic: string): Promise<number> {
    const known = this.partitionCounts.get(topic);
    if (known && Date.now() - known.at < PARTITION_COUNT_TTL_MS) return known.count;
    const count = this.partitionsOf(topic).then((partitions) => partitions.length);
    this.partitionCounts.set(topic, { count, at: Date.now() });
    count.catch(() => this.partitionCounts.delete(topic));
    return count;
  }

  /**
   * The partition the publisher puts a message key on, for a catalog topic (its partition count
   * read from Kafka): lets a consumer group member tell which keys its partitions hold.
   */
  async partitioner(key: TopicKey): Promise<Partitioner> {
    const topic = this.topic(key);
    const count = (await this.partitionsOf(topic)).length;
    return (messageKey) => partitionOfKey(messageKey, count);
  }

  /** The id of the cluster this bus talks to (asked once per process; a failed ask is asked again). */
  clusterId(): Promise<string> {
    this.cluster ??= this.withAdmin(async (admin) => (await admin.describeCluster()).clusterId);
    this.cluster.catch(() => (this.cluster = undefined));
    return this.cluster;
  }

  /** A topic's partitions, as Kafka's metadata lists them now. */
  private partitionsOf(topic: string): Promise<PartitionMetadata[]> {
    return this.withAdmin(
      async (admin) => (await admin.fetchTopicMetadata({ topics: [topic] })).topics[0].partitions,
    );
  }

  private async withAdmin<T>(fn: (admin: ReturnType<Kafka['admin']>) => Promise<T>): Promise<T> {
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      return await fn(admin);
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
  }
}
