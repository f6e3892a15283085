import type { Producer, TopicMessages as KafkaTopicMessages } from 'kafkajs';
import { injectTraceHeaders } from '@hookrail/telemetry';
import { DomainError, UnavailableError } from '@hookrail/domain';
import { encodeMessage } from './codec';
import { TOPICS, topicName, type MessageOf, type TopicKey } from './topics';

interface Pending {
  topic: string;
  key: string;
  value: Buffer;
  headers: Record<string, string | Buffer | undefined>;
  resolve: () => void;
  reject: (err: unknown) => void;
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
  private queue: Pending[] = [];
  private queuedBytes = 0;
  private scheduled = false;
  private inFlight = new Set<Promise<void>>();
  private readonly limits: BatchLimits;

  constructor(
    private readonly producer: Producer,
    private readonly prefix: string,
    limits: Partial<BatchLimits> = {},
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
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
    const all = messages.map(
      (message, i) =>
        new Promise<void>((resolve, reject) => {
          this.queue.push({
            topic: name,
            key: TOPICS[topic].key(message as never),
            value: values[i],
            headers: traceHeaders,
            resolve,
            reject,
          });
          this.queuedBytes += values[i].length;
        }),
    );
    this.schedule();
    return Promise.all(all).then(() => undefined);
  }

  /** Waits for every produce request already handed to Kafka. */
  async drain(): Promise<void> {
    while (this.queue.length > 0 || this.inFlight.size > 0) {
      if (this.queue.length > 0) this.flush(true);
      await Promise.allSettled([...this.inFlight]);
    }
  }

  /**
   * Group commit: idle, what is queued goes out on the next turn (low latency); with the produce
   * requests in flight at their limit, messages gather until one completes and go out together
   * (fewer, larger requests as the rate rises).
   */
  private schedule(): void {
    if (this.queue.length === 0 || this.inFlight.size >= this.limits.maxInFlight) return;
    if (this.queue.length >= this.limits.maxBatch || this.queuedBytes >= this.limits.maxBatchBytes)
      return this.flush();
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  /** Sends what is queued, in produce requests within the count, byte and in-flight limits. */
  private flush(force = false): void {
    this.scheduled = false;
    while (this.queue.length > 0 && (force || this.inFlight.size < this.limits.maxInFlight)) {
      let bytes = 0;
      let n = 0;
      while (
        n < this.queue.length &&
        n < this.limits.maxBatch &&
        (n === 0 || bytes + this.queue[n].value.length <= this.limits.maxBatchBytes)
      ) {
        bytes += this.queue[n].value.length;
        n++;
      }
      this.queuedBytes -= bytes;
      this.send(this.queue.splice(0, n));
    }
  }

  private send(batch: Pending[]): void {
    const byTopic = new Map<string, KafkaTopicMessages>();
    for (const p of batch) {
      let t = byTopic.get(p.topic);
      if (!t) byTopic.set(p.topic, (t = { topic: p.topic, messages: [] }));
      t.messages.push({ key: p.key, value: p.value, headers: p.headers });
    }
    const sent = this.producer
      .sendBatch({ acks: -1, topicMessages: [...byTopic.values()] })
      .then(
        () => batch.forEach((p) => p.resolve()),
        (err: unknown) => {
          const wrapped = new UnavailableError(
            `kafka did not acknowledge the message: ${(err as Error)?.message}`,
            err,
          );
          batch.forEach((p) => p.reject(wrapped));
        },
      )
      .finally(() => {
        this.inFlight.delete(sent);
        this.schedule();
      });
    this.inFlight.add(sent);
  }
}
