import type { Kafka } from 'kafkajs';
import type { ProjectId } from '@hookrail/domain';
import type { Logger, Metrics } from '@hookrail/telemetry';
import { announceConfigChange } from './config-barriers';
import { joinGroup, leaveGroup, type GroupMember, type GroupOptions } from './consumer-group';
import { DeadLetters, type DeadLetterRecorder } from './dead-letters';
import { createKafka, type BusOptions } from './kafka-client';
import { KafkaPing } from './kafka-ping';
import type { Partitioner } from './key-ownership';
import type { ConfigBarrier, DeadLetterMessage } from './messages';
import { ProducerConnection } from './producer-connection';
import type { Publisher } from './publisher';
import { TopicAdmin } from './topic-admin';
import type { TopicKey } from './topics';

/**
 * The only code that knows kafkajs, as one object for the services: a publisher, consumer groups
 * on the catalog's topics, configuration barriers, dead letters, readiness and shutdown. Each is
 * its own module; this wires them to one client and one producer.
 */
export class Bus {
  readonly kafka: Kafka;
  private readonly topics: TopicAdmin;
  private readonly producer: ProducerConnection;
  private readonly deadLetters: DeadLetters;
  private readonly pinger: KafkaPing;
  private readonly members: GroupMember[] = [];

  constructor(
    readonly options: BusOptions,
    private readonly deps: {
      logger: Logger;
      metrics: Metrics;
      /** Also records each dead letter after it is on its topic; a failure is retried, so none is missing. */
      recordDeadLetter?: DeadLetterRecorder;
    },
  ) {
    this.kafka = createKafka(options, deps.logger);
    this.topics = new TopicAdmin(this.kafka, options);
    this.producer = new ProducerConnection(this.kafka, options.topicPrefix, deps.metrics);
    this.deadLetters = new DeadLetters(this.producer, this.topics, deps.recordDeadLetter);
    this.pinger = new KafkaPing(this.kafka, this.topics.topic('events'));
  }

  topic(key: TopicKey): string {
    return this.topics.topic(key);
  }

  deadLetterTopic(key: TopicKey): string {
    return this.topics.deadLetterTopic(key);
  }

  ensureTopics(): Promise<void> {
    return this.topics.ensureTopics();
  }

  partitioner(key: TopicKey): Promise<Partitioner> {
    return this.topics.partitioner(key);
  }

  clusterId(): Promise<string> {
    return this.topics.clusterId();
  }

  connectPublisher(): Promise<Publisher> {
    return this.producer.publisherOf();
  }

  /** One produce request at a time, in the order messages were handed over (ordered deliveries). */
  connectInOrderPublisher(): Promise<Publisher> {
    return this.producer.inOrderPublisherOf();
  }

  announceConfigChange(projectId: ProjectId): Promise<ConfigBarrier> {
    return announceConfigChange(this.producer, this.topics, projectId);
  }

  deadLetter(key: TopicKey, letter: DeadLetterMessage): Promise<void> {
    return this.deadLetters.put(key, letter);
  }

  republish(letter: Pick<DeadLetterMessage, 'topic' | 'key' | 'value' | 'headers'>): Promise<void> {
    return this.deadLetters.republish(letter);
  }

  /** Readiness: Kafka answers, and knows this deployment's events topic (KafkaPing). */
  ping(timeoutMs?: number): Promise<boolean> {
    return this.pinger.ping(timeoutMs);
  }

  /**
   * Starts a consumer group on one catalog topic. The group id is namespaced by the topic prefix,
   * so two deployments (or two test runs) sharing a cluster never share a group.
   */
  async consume<K extends TopicKey>(
    group: string,
    opts: GroupOptions<K>,
  ): Promise<{ stop(): Promise<void> }> {
    const member = await joinGroup(
      this.kafka,
      `${this.options.topicPrefix}.${group}`,
      this.topic(opts.topic),
      { ...opts, sessionTimeoutMs: opts.sessionTimeoutMs ?? this.options.sessionTimeoutMs ?? 30000 },
      {
        logger: this.deps.logger,
        metrics: this.deps.metrics,
        deadLetter: (letter) => this.deadLetter(opts.topic, letter),
        group,
      },
    );
    this.members.push(member);
    return {
      stop: async () => {
        this.members.splice(this.members.indexOf(member), 1);
        await leaveGroup(member);
      },
    };
  }

  /** Stops intake first (consumers finish what they started and commit), then flushes and closes the producer. */
  async close(): Promise<void> {
    this.pinger.close();
    await Promise.allSettled(this.members.splice(0).map(leaveGroup));
    await this.producer.close();
  }
}
