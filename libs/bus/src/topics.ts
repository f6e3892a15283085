import { DeadLetterSchema } from '@hookrail/domain';
import type { Static, TSchema } from '@sinclair/typebox';
import {
  AuditMessageSchema,
  ConfigMessageSchema,
  DeliveryMessageSchema,
  EventMessageSchema,
  MetaMessageSchema,
  RetryMessageSchema,
  type AuditMessage,
  type ConfigMessage,
  type DeadLetterMessage,
  type DeliveryMessage,
  type EventMessage,
  type MetaMessage,
  type RetryMessage,
} from './messages';

/** Everything on a topic, in one place: its name, what it carries and how it is keyed. */
export interface TopicSpec<S extends TSchema> {
  /** Suffix after the configured prefix: `<prefix>.<suffix>`. */
  suffix: string;
  /** Partition key: messages with the same key stay in order and go to one consumer. */
  key: (message: Static<S>) => string;
  /**
   * The message's one declaration (messages.ts), validated on consume: a message that fails is
   * poison and is skipped (logged, counted).
   */
  schema: S;
}

export const TOPICS = {
  // Keyed by event id, so one busy source spreads over every router instead of pinning one
  // partition. Two exceptions keep events in acceptance order where it decides something: a
  // project that orders deliveries is keyed by project, and an event with an idempotency key by
  // that key, so the router claims a key for the first accepted of its events and records the
  // repeats as its duplicates (on different partitions, a repeat could claim it first).
  events: {
    suffix: 'events',
    key: (m: EventMessage) => (m.ordered ? m.project_id : m.idempotency_key || m.event_id),
    schema: EventMessageSchema,
  } satisfies TopicSpec<typeof EventMessageSchema>,
  // Keyed by endpoint: one dispatcher owns an endpoint at a time, so per-endpoint limits and the
  // circuit breaker are local decisions (docs/architecture.md).
  deliveries: {
    suffix: 'deliveries',
    key: (m: DeliveryMessage) => m.endpoint_id,
    schema: DeliveryMessageSchema,
  } satisfies TopicSpec<typeof DeliveryMessageSchema>,
  retries: {
    suffix: 'retries',
    key: (m: RetryMessage) => m.delivery_id,
    schema: RetryMessageSchema,
  } satisfies TopicSpec<typeof RetryMessageSchema>,
  meta: {
    suffix: 'meta',
    key: (m: MetaMessage) => m.project_id,
    schema: MetaMessageSchema,
  } satisfies TopicSpec<typeof MetaMessageSchema>,
  config: {
    suffix: 'config',
    key: (m: ConfigMessage) => m.project_id,
    schema: ConfigMessageSchema,
  } satisfies TopicSpec<typeof ConfigMessageSchema>,
  audit: {
    suffix: 'audit',
    // a project's records in the order they were made; the instance's own calls on one partition
    key: (m: AuditMessage) => m.project_id ?? 'instance',
    schema: AuditMessageSchema,
  } satisfies TopicSpec<typeof AuditMessageSchema>,
} as const;

export type TopicKey = keyof typeof TOPICS;

/** Each topic's message: its schema's static type. */
export type TopicMessages = { [K in TopicKey]: Static<(typeof TOPICS)[K]['schema']> };

export type MessageOf<K extends TopicKey> = TopicMessages[K];

export const TOPIC_KEYS = Object.keys(TOPICS) as TopicKey[];

/**
 * The topics whose consumers keep configuration cached (the router, the sender): a configuration
 * change puts a barrier on each of their partitions before its API call returns.
 */
export const BARRIER_TOPICS = ['events', 'deliveries'] as const satisfies readonly TopicKey[];

/** The header that marks a configuration barrier among a topic's messages. */
export const CONFIG_BARRIER_HEADER = 'hookrail-config-barrier';

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
  schema: DeadLetterSchema,
};

export function deadLetterTopicName(prefix: string, key: TopicKey): string {
  return `${prefix}.${DEAD_LETTERS.suffix(key)}`;
}
