import type { Static } from '@sinclair/typebox';
import {
  anyJson,
  anyObject,
  enumOf,
  int,
  nullable,
  nullableTimestamp,
  resource,
  scopedFields,
  str,
} from './common.schema';

export const META_EVENT_STATUSES = [
  'Scheduled',
  'Processing',
  'Success',
  'Retry',
  'Failure',
  'Discarded',
] as const;

export const metaEventResponse = resource({
  ...scopedFields,
  event_type: str(),
  status: enumOf(META_EVENT_STATUSES),
  status_reason: nullable(
    str({ description: 'Discarded: why it was not sent (meta events off, no URL, its type not selected)' }),
  ),
  attempt: nullable(
    resource({ request_http_header: anyObject, response_http_header: anyObject, response_data: str() }),
  ),
  metadata: resource({
    data: anyJson,
    raw: str(),
    strategy: str(),
    interval_seconds: int(),
    max_retry_seconds: int(),
    num_trials: int(),
    retry_limit: int(),
    next_send_time: nullableTimestamp,
  }),
});
export type MetaEventResponse = Static<typeof metaEventResponse>;
