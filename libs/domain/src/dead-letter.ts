/**
 * A message a Kafka consumer gave up on (`<prefix>.dlq.<topic>`): the original bytes, where they
 * came from and why they failed. The dead-letter topic carries it (libs/bus) and the admin API's
 * record is made of it (libs/store); re-driving publishes `value` with `key` and `headers` to
 * `topic` again.
 */
export interface DeadLetter {
  /** The original topic's full name. */
  topic: string;
  partition: number;
  offset: string;
  /** The consumer group that failed it (without the topic prefix). */
  group: string;
  key: string | null;
  /** The original message value as text (null for a tombstone). */
  value: string | null;
  headers: Record<string, string>;
  error: string;
  error_name: string;
  /** False: the failure says retrying cannot help; true: it kept failing after every attempt. */
  retriable: boolean;
  attempts: number;
  failed_at: string;
}
