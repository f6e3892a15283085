import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  Kafka,
  logLevel,
  Partitioners,
  type Admin,
  type Consumer,
  type KafkaConfig,
  type PartitionMetadata,
  type Producer,
} from 'kafkajs';
import type { Logger, Metrics } from '@hookrail/telemetry';
import { BatchingPublisher, type Publisher } from './publisher';
import { consume, type ConsumeOptions, type RunningConsumer } from './consumer';
import type { ProjectId } from '@hookrail/domain';
import type { ConfigBarrier, DeadLetterMessage } from './messages';
import type { Partitioner } from './key-ownership';
import {
  BARRIER_TOPICS,
  CONFIG_BARRIER_HEADER,
  DEAD_LETTERS,
  deadLetterTopicName,
  TOPIC_KEYS,
  topicName,
  type TopicKey,
} from './topics';

export interface BusOptions {
  brokers: string[];
  clientId: string;
  topicPrefix: string;
  partitions: number;
  replicationFactor: number;
  /** Default 30 s. */
  sessionTimeoutMs?: number;
  /** TLS to the brokers; `caFile` (PEM) is trusted besides the system CAs. */
  tls?: { caFile?: string };
  sasl?: { mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512'; username: string; password: string };
}

/** The kafkajs `ssl` / `sasl` settings for the options (none: plaintext). */
export function kafkaSecurity(
  options: Pick<BusOptions, 'tls' | 'sasl'>,
  readFile: (path: string) => string = (p) => readFileSync(p, 'utf8'),
): Pick<KafkaConfig, 'ssl' | 'sasl'> {
  const out: Pick<KafkaConfig, 'ssl' | 'sasl'> = {};
  if (options.tls) out.ssl = options.tls.caFile ? { ca: [readFile(options.tls.caFile)] } : true;
  if (options.sasl) {
    const { mechanism, username, password } = options.sasl;
    // kafkajs types each mechanism separately; the three share one shape.
    out.sasl = { mechanism, username, password } as KafkaConfig['sasl'];
  }
  return out;
}

/** Large enough for a payload at the highest project limit plus its headers. */
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
/**
 * How long a topic's partition count is trusted: by barriers, by the producer's partitioner, and by
 * consumers, which rejoin their group when they see partitions added (kafkajs' default is 5 min).
 */
const PARTITION_COUNT_TTL_MS = 60_000;

/**
 * The only code that knows kafkajs. Services get a publisher, a way to consume a topic from the
 * catalog, readiness and shutdown.
 */
export class Bus {
  readonly kafka: Kafka;
  private producer?: Producer;
  private publisher?: BatchingPublisher;
  private connecting?: Promise<Publisher>;
  private cluster?: Promise<string>;
  private pingAdmin?: Promise<Admin>;
  private readonly consumers: { consumer: Consumer; running: RunningConsumer }[] = [];
  private readonly partitionCounts = new Map<string, { count: Promise<number>; at: number }>();

  constructor(
    readonly options: BusOptions,
    private readonly deps: {
      logger: Logger;
      metrics: Metrics;
      /**
       * Also records each dead letter elsewhere (the runtime: MongoDB, for the admin API), after it
       * is on its dead-letter topic. A failure is retried, so the record is never missing.
       */
      recordDeadLetter?: (letter: DeadLetterMessage) => Promise<void>;
    },
  ) {
    const log = deps.logger.child({ component: 'kafkajs' });
    this.kafka = new Kafka({
      clientId: options.clientId,
      brokers: options.brokers,
      ...kafkaSecurity(options),
      connectionTimeout: 3000,
      requestTimeout: 30000,
      retry: { initialRetryTime: 200, retries: 8 },
      logLevel: logLevel.WARN,
      logCreator:
        () =>
        ({ level, log: entry }) => {
          const { message, ...rest } = entry;
          if (level <= logLevel.ERROR) log.error(rest, message);
          else log.warn(rest, message);
        },
    });
  }

  topic(key: TopicKey): string {
    return topicName(this.options.topicPrefix, key);
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
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      const existing = new Set(await admin.listTopics());
      const missing = TOPIC_KEYS.flatMap((k) => [this.topic(k), this.deadLetterTopic(k)]).filter(
        (t) => !existing.has(t),
      );
      if (missing.length === 0) return;
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
    } finally {
      await admin.disconnect();
    }
  }

  deadLetterTopic(key: TopicKey): string {
    return deadLetterTopicName(this.options.topicPrefix, key);
  }

  /** Puts a message a consumer gave up on onto its dead-letter topic (acks=-1), then records it. */
  async deadLetter(key: TopicKey, letter: DeadLetterMessage): Promise<void> {
    const producer = await this.connectProducer();
    await producer.send({
      topic: this.deadLetterTopic(key),
      acks: -1,
      messages: [
        {
          key: DEAD_LETTERS.key(letter),
          value: JSON.stringify(letter),
          headers: {
            'x-hookrail-dlq-topic': letter.topic,
            'x-hookrail-dlq-error': letter.error.slice(0, 1000),
            'x-hookrail-dlq-attempts': String(letter.attempts),
          },
        },
      ],
    });
    await this.deps.recordDeadLetter?.(letter);
  }

  /**
   * Announces that a project's configuration changed: a configuration barrier with a fresh token
   * on every partition of the topics whose consumers cache configuration (BARRIER_TOPICS).
   * Resolves once Kafka acknowledged all of them, so every message published after it is
   * consumed after a barrier (docs/decisions.md, "Configuration changes").
   */
  async announceConfigChange(projectId: ProjectId): Promise<ConfigBarrier> {
    const barrier: ConfigBarrier = { project_id: projectId, token: randomUUID() };
    const producer = await this.connectProducer();
    const value = JSON.stringify(barrier);
    const topicMessages = await Promise.all(
      BARRIER_TOPICS.map(async (key) => {
        const topic = this.topic(key);
        const count = await this.partitionCount(topic);
        return {
          topic,
          messages: Array.from({ length: count }, (_, partition) => ({
            partition,
            key: projectId,
            value,
            headers: { [CONFIG_BARRIER_HEADER]: '1' },
          })),
        };
      }),
    );
    await producer.sendBatch({ acks: -1, topicMessages });
    return barrier;
  }

  private partitionCount(topic: string): Promise<number> {
    const known = this.partitionCounts.get(topic);
    if (known && Date.now() - known.at < PARTITION_COUNT_TTL_MS) return known.count;
    const count = this.partitionsOf(topic).then((partitions) => partitions.length);
    this.partitionCounts.set(topic, { count, at: Date.now() });
    count.catch(() => this.partitionCounts.delete(topic));
    return count;
  }

  /** Re-drive: publishes a dead letter's original key, value and headers to its original topic. */
  async republish(letter: Pick<DeadLetterMessage, 'topic' | 'key' | 'value' | 'headers'>): Promise<void> {
    const producer = await this.connectProducer();
    await producer.send({
      topic: letter.topic,
      acks: -1,
      messages: [{ key: letter.key, value: letter.value, headers: letter.headers }],
    });
  }

  private async connectProducer(): Promise<Producer> {
    await this.connectPublisher();
    return this.producer as Producer;
  }

  /** One producer per bus, however many callers ask for it at once. */
  connectPublisher(): Promise<Publisher> {
    this.connecting ??= (async () => {
      // Not kafkajs' idempotent producer: after a produce request whose outcome it does not know
      // (the broker died before answering), it reuses that request's sequence numbers for the next
      // batch, which the broker, holding the first, answers as a duplicate without storing it: an
      // acknowledged event lost (seen in the Kafka-restart chaos test), or OUT_OF_ORDER_SEQUENCE
      // forever. Plain retries may duplicate a message instead, which every consumer tolerates
      // (idempotent writes, stable delivery ids); one request in flight per broker keeps the order
      // while Kafka answers (docs/decisions.md, "Reliability under faults").
      const producer = this.kafka.producer({
        idempotent: false,
        maxInFlightRequests: 1,
        createPartitioner: Partitioners.DefaultPartitioner,
        metadataMaxAge: PARTITION_COUNT_TTL_MS,
      });
      await producer.connect();
      this.producer = producer;
      this.publisher = new BatchingPublisher(producer, this.options.topicPrefix);
      return this.publisher;
    })().catch((err: unknown) => {
      this.connecting = undefined;
      throw err;
    });
    return this.connecting;
  }

  /**
   * Starts a consumer group on one catalog topic. The group id is namespaced by the topic prefix,
   * so two deployments (or two test runs) sharing a cluster never share a group.
   */
  async consume<K extends TopicKey>(
    group: string,
    opts: Omit<ConsumeOptions<K>, 'topicName'> & {
      partitionsConcurrently?: number;
      /** The partitions of the topic this member owns after each group join (rebalance). */
      onAssignment?: (partitions: number[]) => void;
      /** A rebalance started: ownership of every partition is about to change. */
      onRebalancing?: () => void;
      /** This group's session timeout, when it must notice a dead member sooner than the default. */
      sessionTimeoutMs?: number;
    },
  ): Promise<{ stop(): Promise<void> }> {
    const deadLetter = (letter: DeadLetterMessage) => this.deadLetter(opts.topic, letter);
    const sessionTimeout = opts.sessionTimeoutMs ?? this.options.sessionTimeoutMs ?? 30000;
    const consumer = this.kafka.consumer({
      groupId: `${this.options.topicPrefix}.${group}`,
      sessionTimeout,
      heartbeatInterval: Math.min(3000, Math.floor(sessionTimeout / 3)),
      maxBytes: MAX_MESSAGE_BYTES * 2,
      maxBytesPerPartition: MAX_MESSAGE_BYTES,
      // How long the broker holds a fetch that finds nothing: a message that arrives meanwhile is
      // answered at once, so this costs no latency, only idle polls (Kafka's CPU at low rates).
      maxWaitTimeInMs: 500,
      metadataMaxAge: PARTITION_COUNT_TTL_MS,
      retry: { initialRetryTime: 300, retries: 10, restartOnFailure: async () => true },
    });
    await consumer.connect();
    const topic = this.topic(opts.topic);
    if (opts.onAssignment) {
      const onAssignment = opts.onAssignment;
      consumer.on(consumer.events.GROUP_JOIN, (e) => onAssignment(e.payload.memberAssignment[topic] ?? []));
    }
    if (opts.onRebalancing) consumer.on(consumer.events.REBALANCING, () => opts.onRebalancing?.());
    const running = await consume(
      consumer,
      { ...opts, topicName: topic },
      { ...this.deps, partitionsConcurrently: opts.partitionsConcurrently, deadLetter, group },
    );
    const entry = { consumer, running };
    this.consumers.push(entry);
    return {
      stop: async () => {
        this.consumers.splice(this.consumers.indexOf(entry), 1);
        await stopConsumer(entry);
      },
    };
  }

  /**
   * The partition the publisher puts a message key on, for a catalog topic (its partition count
   * read from Kafka): lets a consumer group member tell which keys its partitions hold.
   */
  async partitioner(key: TopicKey): Promise<Partitioner> {
    const topic = this.topic(key);
    const partitionMetadata = await this.partitionsOf(topic);
    const partition = Partitioners.DefaultPartitioner();
    return (messageKey) => partition({ topic, partitionMetadata, message: { key: messageKey, value: null } });
  }

  /** A topic's partitions, as Kafka's metadata lists them now. */
  private async partitionsOf(topic: string): Promise<PartitionMetadata[]> {
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      return (await admin.fetchTopicMetadata({ topics: [topic] })).topics[0].partitions;
    } finally {
      await admin.disconnect();
    }
  }

  /** The id of the cluster this bus talks to (asked once per process). */
  clusterId(): Promise<string> {
    this.cluster ??= (async () => {
      const admin = this.kafka.admin();
      await admin.connect();
      try {
        return (await admin.describeCluster()).clusterId;
      } finally {
        await admin.disconnect().catch(() => undefined);
      }
    })();
    // A failed ask is asked again next time.
    this.cluster.catch(() => (this.cluster = undefined));
    return this.cluster;
  }

  /** Kafka answers a metadata request within `timeoutMs` (no retries: readiness must answer fast). */
  async ping(timeoutMs = 2000): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    const check = (async () => {
      await (await this.pingClient()).describeCluster();
      return true;
    })().catch(() => false);
    try {
      const ok = await Promise.race([check, timeout]);
      if (!ok) this.dropPingClient();
      return ok;
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * One connected admin client for every ping, dropped when a ping fails: a client per ping meant
   * a new connection and its handshake every few seconds in every process.
   */
  private pingClient(): Promise<Admin> {
    this.pingAdmin ??= (async () => {
      const admin = this.kafka.admin({ retry: { retries: 0 } });
      await admin.connect();
      return admin;
    })();
    return this.pingAdmin;
  }

  private dropPingClient(): void {
    const admin = this.pingAdmin;
    this.pingAdmin = undefined;
    void admin?.then((a) => a.disconnect()).catch(() => undefined);
  }

  /** Stops intake first (consumers finish what they started and commit), then flushes and closes the producer. */
  async close(): Promise<void> {
    this.dropPingClient();
    await Promise.allSettled(this.consumers.splice(0).map(stopConsumer));
    await this.publisher?.drain();
    await this.producer?.disconnect();
  }
}

/** Within a graceful stop's budget: finish and commit what was started, then leave the group. */
const DRAIN_MS = 8000;

async function stopConsumer(c: { consumer: Consumer; running: RunningConsumer }): Promise<void> {
  await c.running.drain(DRAIN_MS);
  await c.consumer.disconnect();
}
