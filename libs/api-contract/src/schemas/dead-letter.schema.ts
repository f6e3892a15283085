import type { Static } from '@sinclair/typebox';
import { bool, enumOf, int, mapOf, nullable, object, str } from './common.schema';

/** A Kafka message a consumer could not handle, kept for inspection and redrive. */
export const deadLetterResponse = object({
  uid: str(),
  topic: str(),
  partition: int(),
  offset: str(),
  group: str(),
  key: nullable(str()),
  value: nullable(str()),
  headers: mapOf(str()),
  error: str(),
  error_name: str(),
  retriable: bool,
  attempts: int(),
  failed_at: str({ format: 'date-time' }),
  status: enumOf(['pending', 'redriven']),
  redriven_at: nullable(str({ format: 'date-time' })),
  redrive_count: int(),
});
export type DeadLetterResponse = Static<typeof deadLetterResponse>;
