import type { Producer, TopicMessages as KafkaTopicMessages } from 'kafkajs';
import { injectTraceHeaders } from '@hookrail/telemetry';
import { DomainError, UnavailableError } from '@hookrail/domain';
import { Coalescer } from '@hookrail/toolbox';
import { encodeMessage } from './codec';
import { TOPICS, topicName, type MessageOf, type TopicKey } from './topics';

/** One message on its way to Kafka. */
interface Outgoing {
  topic: string;
  key: string;
  value: Buffer;
  headers: Record<string, string | Buffer | undefined>;
}

export interface Publisher {
  /** Resolves once Kafka acknowledged every message with acks=-1 (all in-sync replicas). */
  publish<K extends TopicKey>(
    topic: K,
    messages: MessageOf<K>[],
    headers?: Record<string, string>,
  ): Promise<void>;
}

/**
 * Coalesces concurrent publishes into few produce requests: an HTTP server accepting hundreds of
 * requests at once sends a handful of batches instead of hundreds of requests, and each caller
 * still waits for its own acknowledgement.
 */
export interface BatchLimits {
  /** Messages in one produce request. */
  maxBatch: number;
  /** Bytes in one produce request: Kafka limits a record batch per partition, not a record. */
  maxBatchBytes: number;
  /** Largest single message accepted; a larger one is refused alone, never failing its batch. */
  maxMessageBytes: number;
  /** Produce requests in flight at once; more messages wait and go together in the next one. */
  maxInFlight: number;
}

const DEFAULT_LIMITS: BatchLimits = {
  maxBatch: 500,
  maxBatchBytes: 4 * 1024 * 1024,
  maxMessageBytes: 15 * 1024 * 1024,
  maxInFlight: 3,
};

export class BatchingPublisher implements Publisher {
  private readonly limits: BatchLimits;
  /** Group commit of produce requests, within the count and byte limits (libs/domain Coalescer). */
  private readonly requests: Coalescer<Outgoing>;

  constructor(
    private readonly producer: Producer,
    private readonly prefix: string,
    limits: Partial<BatchLimits> = {},
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
    this.requests = new Coalescer((batch) => this.send(batch), {
      maxBatch: this.limits.maxBatch,
      maxInFlight: this.limits.maxInFlight,
      weight: { of: (m) => m.value.length, max: this.limits.maxBatchBytes },
    });
  }

  publish<K extends TopicKey>(
    topic: K,
    messages: MessageOf<K>[],
    headers: Record<string, string> = {},
  ): Promise<void> {
    if (messages.length === 0) return Promise.resolve();
    const name = topicName(this.prefix, topic);
    const values = messages.map((message) => encodeMessage(topic, message));
    const tooLarge = values.find((v) => v.length > this.limits.maxMessageBytes);
    if (tooLarge)
      return Promise.reject(
        new DomainError(
          'payload_too_large',
          `message of ${tooLarge.length} bytes is larger than the bus limit of ${this.limits.maxMessageBytes} bytes`,
        ),
      );
    const traceHeaders = injectTraceHeaders({ ...headers });
    return Promise.all(
      messages.map((message, i) =>
        this.requests.submit({
          topic: name,
          key: TOPICS[topic].key(message as never),
          value: values[i],
          headers: traceHeaders,
        }),
      ),
    ).then(() => undefined);
  }

  /** Waits for every message already published to be acknowledged (or failed). */
  drain(): Promise<void> {
    return this.requests.drain();
  }

  /** One produce request for the batch, grouped by topic; a failure is retriable for every caller. */
  private async send(batch: Outgoing[]): Promise<void> {
    const byTopic = new Map<string, KafkaTopicMessages>();
    for (const m of batch) {
      let t = byTopic.get(m.topic);
      if (!t) byTopic.set(m.topic, (t = { topic: m.topic, messages: [] }));
      t.messages.push({ key: m.key, value: m.value, headers: m.headers });
    }
    try {
      await this.producer.sendBatch({ acks: -1, topicMessages: [...byTopic.values()] });
    } catch (err) {
      throw new UnavailableError(`kafka did not acknowledge the message: ${(err as Error)?.message}`, err);
    }
  }
}
