import { Type } from '@sinclair/typebox';
import { DELIVERY_OUTCOMES, STATS_WINDOW_NAMES } from '../vocabulary';
import { bool, enumOf, int, nullable, resource, sameFields, str, timestamp } from './common.schema';

const counts = resource(sameFields(DELIVERY_OUTCOMES, int()));

const ms = nullable(int({ description: 'estimated from a fixed latency histogram (bucket width)' }));

/** Every field is always present (a response, so `resource`). */
export const statsResponse = resource({
  window: enumOf(STATS_WINDOW_NAMES),
  endpoint_id: nullable(str()),
  from: timestamp,
  to: timestamp,
  step_seconds: int(),
  totals: counts,
  p50_ms: ms,
  p95_ms: ms,
  retry_backlog: resource({ count: int(), capped: bool }),
  points: Type.Array(resource({ at: timestamp, outcomes: counts, p50_ms: ms, p95_ms: ms })),
});
