import { nullableTimestamp } from '@hookrail/domain';
import type { MetaEventDoc } from '@hookrail/store';
import type { MetaEventResponse } from '@hookrail/api-contract';
import { parseStored, scopedOut } from '../common/scoped.presenter';

export function presentMetaEvent(doc: MetaEventDoc): MetaEventResponse {
  const m = doc.metadata ?? ({} as Partial<MetaEventDoc['metadata']>);
  return {
    ...scopedOut(doc),
    event_type: doc.event_type,
    status: doc.status ?? 'Scheduled',
    status_reason: doc.status_reason ?? null,
    attempt: doc.attempt
      ? {
          request_http_header: parseStored<Record<string, unknown>>(doc.attempt.request_http_header_json, {}),
          response_http_header: parseStored<Record<string, unknown>>(
            doc.attempt.response_http_header_json,
            {},
          ),
          response_data: doc.attempt.response_data ?? '',
        }
      : null,
    metadata: {
      data: parseStored<unknown>(m.raw, null),
      raw: m.raw ?? '',
      strategy: m.strategy ?? 'linear',
      interval_seconds: m.interval_seconds ?? 0,
      max_retry_seconds: m.max_retry_seconds ?? 0,
      num_trials: m.num_trials ?? 0,
      retry_limit: m.retry_limit ?? 0,
      next_send_time: nullableTimestamp(m.next_send_time),
    },
  };
}
