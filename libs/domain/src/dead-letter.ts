import { Type, type Static } from '@sinclair/typebox';

/**
 * A message a Kafka consumer gave up on (`<prefix>.dlq.<topic>`): the original bytes, where they
 * came from and why they failed. The dead-letter topic carries it (libs/bus) and the admin API's
 * record is made of it (libs/store); re-driving publishes `value` with `key` and `headers` to
 * `topic` again.
 */
export const DeadLetterSchema = Type.Object({
  /** The original topic's full name. */
  topic: Type.String({ minLength: 1 }),
  partition: Type.Integer({ minimum: 0 }),
  offset: Type.String({ minLength: 1 }),
  /** The consumer group that failed it (without the topic prefix). */
  group: Type.String({ minLength: 1 }),
  key: Type.Union([Type.String(), Type.Null()]),
  /** The original message value as text (null for a tombstone). */
  value: Type.Union([Type.String(), Type.Null()]),
  headers: Type.Record(Type.String(), Type.String()),
  error: Type.String(),
  error_name: Type.String(),
  /** False: the failure says retrying cannot help; true: it kept failing after every attempt. */
  retriable: Type.Boolean(),
  attempts: Type.Integer({ minimum: 1 }),
  failed_at: Type.String({ minLength: 1 }),
});
export type DeadLetter = Static<typeof DeadLetterSchema>;
