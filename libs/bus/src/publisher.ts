import type { Producer, TopicMessages as KafkaTopicMessages } from 'kafkajs';
import { injectTraceHeaders } from '@hookrail/telemetry';
import { UnavailableError } from '@hookrail/domain';
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
 * Coalesces concurrent publishes into one produce request per tick: an HTTP server accepting
 * hundreds of requests at once sends a handful of batches instead of hundreds of requests, and each
 * caller still waits for its own acknowledgement.
 */
export class BatchingPublisher implements Publisher {
  private queue: Pending[] = [];
  private scheduled = false;
  private inFlight = new Set<Promise<void>>();

  constructor(
    private readonly producer: Producer,
    private readonly prefix: string,
    private readonly maxBatch = 500,
  ) {}

  publish<K extends TopicKey>(
    topic: K,
    messages: MessageOf<K>[],
    headers: Record<string, string> = {},
  ): Promise<void> {
    if (messages.length === 0) return Promise.resolve();
    const name = topicName(this.prefix, topic);
    const traceHeaders = injectTraceHeaders({ ...headers });
    const all = messages.map(
      (message) =>
        new Promise<void>((resolve, reject) => {
          this.queue.push({
            topic: name,
            key: TOPICS[topic].key(message as never),
            value: encodeMessage(topic, message),
            headers: traceHeaders,
            resolve,
            reject,
          });
        }),
    );
    this.schedule();
    return Promise.all(all).then(() => undefined);
  }

  /** Waits for every produce request already handed to Kafka. */
  async drain(): Promise<void> {
    while (this.queue.length > 0 || this.inFlight.size > 0) {
      if (this.queue.length > 0) this.flush();
      await Promise.allSettled([...this.inFlight]);
    }
  }

  private schedule(): void {
    if (this.queue.length >= this.maxBatch) return this.flush();
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.queue.splice(0, this.queue.length);
    if (batch.length === 0) return;
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
      .finally(() => this.inFlight.delete(sent));
    this.inFlight.add(sent);
  }
}
