import type { ProducerConnection } from './producer-connection';
import type { DeadLetterMessage } from './messages';
import type { TopicAdmin } from './topic-admin';
import { DEAD_LETTERS, type TopicKey } from './topics';

/** Records a dead letter elsewhere (the runtime: MongoDB, for the admin API) once it is on its topic. */
export type DeadLetterRecorder = (letter: DeadLetterMessage) => Promise<void>;

/** Messages consumers gave up on: onto their dead-letter topic, and back to their topic (re-drive). */
export class DeadLetters {
  constructor(
    private readonly producer: ProducerConnection,
    private readonly topics: TopicAdmin,
    private readonly record?: DeadLetterRecorder,
  ) {}

  /** Onto the dead-letter topic (acks=-1), then recorded; a failure is retried by the caller. */
  async put(key: TopicKey, letter: DeadLetterMessage): Promise<void> {
    const producer = await this.producer.producerOf();
    await producer.send({
      topic: this.topics.deadLetterTopic(key),
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
    await this.record?.(letter);
  }

  /** Re-drive: publishes a dead letter's original key, value and headers to its original topic. */
  async republish(letter: Pick<DeadLetterMessage, 'topic' | 'key' | 'value' | 'headers'>): Promise<void> {
    const producer = await this.producer.producerOf();
    await producer.send({
      topic: letter.topic,
      acks: -1,
      messages: [{ key: letter.key, value: letter.value, headers: letter.headers }],
    });
  }
}
