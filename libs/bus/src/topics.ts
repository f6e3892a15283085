import type { JSONSchemaType } from 'ajv';
import type {
  ConfigMessage,
  DeadLetterMessage,
  DeliveryMessage,
  EventMessage,
  MetaMessage,
  RetryMessage,
} from './messages';

/** Everything on a topic, in one place: its name, what it carries and how it is keyed. */
export interface TopicSpec<T> {
  /** Suffix after the configured prefix: `<prefix>.<suffix>`. */
  suffix: string;
  /** Partition key: messages with the same key stay in order and go to one consumer. */
  key: (message: T) => string;
  /** Validated on consume; a message that fails is poison and is skipped (logged, counted). */
  schema: JSONSchemaType<T> | Record<string, unknown>;
}

const str = { type: 'string', minLength: 1 } as const;

export const TOPICS = {
  // Keyed by event id: routing an event is independent of every other event (dedupe is a unique
  // index), so one busy source spreads over every router instead of pinning one partition.
  events: {
    suffix: 'events',
    key: (m: EventMessage) => m.event_id,
    schema: {
      type: 'object',
      required: ['event_id', 'project_id', 'event_type', 'target', 'raw', 'headers', 'accepted_at'],
      properties: {
        event_id: str,
        project_id: str,
        event_type: { type: 'string' },
        target: {
          type: 'object',
          required: ['mode'],
          properties: { mode: { enum: ['source', 'single', 'fanout', 'broadcast'] } },
        },
        raw: { type: 'string' },
        headers: { type: 'object' },
      },
    },
  } satisfies TopicSpec<EventMessage>,
  // Keyed by endpoint: one dispatcher owns an endpoint at a time, so per-endpoint limits and the
  // circuit breaker are local decisions (docs/architecture.md).
  deliveries: {
    suffix: 'deliveries',
    key: (m: DeliveryMessage) => m.endpoint_id,
    schema: {
      type: 'object',
      required: ['delivery_id', 'project_id', 'endpoint_id', 'event_id', 'reason'],
      properties: {
        delivery_id: str,
        project_id: str,
        endpoint_id: str,
        event_id: str,
        reason: { type: 'string' },
        first_send: {
          type: 'object',
          required: ['subscription_id', 'event_type', 'delivery_mode', 'raw', 'siblings', 'created_at'],
          properties: {
            subscription_id: str,
            event_type: { type: 'string' },
            delivery_mode: { enum: ['at_least_once', 'at_most_once'] },
            raw: { type: 'string' },
            forward_headers: { type: 'object' },
            siblings: { type: 'integer', minimum: 1 },
            created_at: str,
            config_version: { type: 'string' },
            headers: { type: 'object' },
          },
        },
      },
    },
  } satisfies TopicSpec<DeliveryMessage>,
  retries: {
    suffix: 'retries',
    key: (m: RetryMessage) => m.delivery_id,
    schema: {
      type: 'object',
      required: ['delivery_id', 'project_id', 'endpoint_id', 'due_at', 'reason'],
      properties: {
        delivery_id: str,
        project_id: str,
        endpoint_id: str,
        due_at: str,
        reason: { type: 'string' },
      },
    },
  } satisfies TopicSpec<RetryMessage>,
  meta: {
    suffix: 'meta',
    key: (m: MetaMessage) => m.project_id,
    schema: {
      type: 'object',
      required: ['project_id', 'event_type', 'occurred_at'],
      properties: { project_id: str, event_type: str, occurred_at: str },
    },
  } satisfies TopicSpec<MetaMessage>,
  config: {
    suffix: 'config',
    key: (m: ConfigMessage) => m.project_id,
    schema: {
      type: 'object',
      required: ['project_id', 'resource', 'id', 'op'],
      properties: {
        project_id: str,
        resource: { enum: ['project', 'source', 'endpoint', 'subscription', 'portal_link'] },
        id: str,
        op: { enum: ['created', 'updated', 'deleted'] },
      },
    },
  } satisfies TopicSpec<ConfigMessage>,
} as const;

export type TopicKey = keyof typeof TOPICS;

export interface TopicMessages {
  events: EventMessage;
  deliveries: DeliveryMessage;
  retries: RetryMessage;
  meta: MetaMessage;
  config: ConfigMessage;
}

export type MessageOf<K extends TopicKey> = TopicMessages[K];

export const TOPIC_KEYS = Object.keys(TOPICS) as TopicKey[];

export function topicName(prefix: string, key: TopicKey): string {
  return `${prefix}.${TOPICS[key].suffix}`;
}

/**
 * Each catalog topic has a dead-letter topic, `<prefix>.dlq.<suffix>`, where its consumers put the
 * messages they gave up on (a copy is also recorded in MongoDB for the admin API).
 */
export const DEAD_LETTERS = {
  suffix: (key: TopicKey) => `dlq.${TOPICS[key].suffix}`,
  // Keyed by the original position: one message's dead letters stay in order on one partition.
  key: (m: DeadLetterMessage) => `${m.topic}/${m.partition}/${m.offset}`,
  schema: {
    type: 'object',
    required: ['topic', 'partition', 'offset', 'group', 'value', 'headers', 'error', 'attempts', 'failed_at'],
    properties: {
      topic: str,
      partition: { type: 'integer', minimum: 0 },
      offset: str,
      group: str,
      error: { type: 'string' },
      attempts: { type: 'integer', minimum: 1 },
      failed_at: str,
    },
  },
};

export function deadLetterTopicName(prefix: string, key: TopicKey): string {
  return `${prefix}.${DEAD_LETTERS.suffix(key)}`;
}
