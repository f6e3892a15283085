import type { Kafka, Producer } from 'kafkajs';
import type { Metrics } from '@hookrail/telemetry';
import { PARTITION_COUNT_TTL_MS } from './kafka-client';
import { KeyPartitioner } from './key-partitioner';
import { countKafkaRequests } from './request-metrics';
import { BatchingPublisher, type Publisher } from './publisher';

/** The bus's one producer, connected on first use however many callers ask at once. */
export class ProducerConnection {
  private producer?: Producer;
  private publisher?: BatchingPublisher;
  private inOrder?: BatchingPublisher;
  private connecting?: Promise<{ producer: Producer; publisher: BatchingPublisher }>;

  constructor(
    private readonly kafka: Kafka,
    private readonly topicPrefix: string,
    private readonly metrics: Metrics,
  ) {}

  async publisherOf(): Promise<Publisher> {
    return (await this.connect()).publisher;
  }

  /**
   * A publisher that sends one produce request at a time, in the order its messages were handed
   * to it (ordered deliveries): the shared one keeps up to three in flight, and requests that are
   * in flight at once can reach Kafka in either order.
   */
  async inOrderPublisherOf(): Promise<Publisher> {
    const { producer } = await this.connect();
    this.inOrder ??= new BatchingPublisher(producer, this.topicPrefix, { maxInFlight: 1 });
    return this.inOrder;
  }

  /** The raw producer, for the bus's own messages (barriers, dead letters, re-drives). */
  async producerOf(): Promise<Producer> {
    return (await this.connect()).producer;
  }

  /** Flushes what the publisher holds, then disconnects. */
  async close(): Promise<void> {
    await Promise.all([this.publisher?.drain(), this.inOrder?.drain()]);
    await this.producer?.disconnect();
  }

  private connect(): Promise<{ producer: Producer; publisher: BatchingPublisher }> {
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
        createPartitioner: KeyPartitioner,
        metadataMaxAge: PARTITION_COUNT_TTL_MS,
      });
      countKafkaRequests(producer, this.metrics, 'producer');
      await producer.connect();
      this.producer = producer;
      this.publisher = new BatchingPublisher(producer, this.topicPrefix);
      return { producer, publisher: this.publisher };
    })().catch((err: unknown) => {
      this.connecting = undefined;
      throw err;
    });
    return this.connecting;
  }
}
