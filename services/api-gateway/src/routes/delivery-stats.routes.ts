import { NotFoundError, toTimestamp } from '@hookrail/domain';
import { OUTCOMES, STATS_WINDOWS, deliveryStats, type StatsWindow } from '@hookrail/operations';
import type { GatewayDeps } from '../deps';
import type { RouteFile } from '../http/legacy-route';
import { Type } from '@sinclair/typebox';
import { bool, enumOf, int, nullable, object, sameFields, str, timestamp } from '@hookrail/api-contract';
import { idQuery } from '@hookrail/api-contract';

const counts = object(sameFields(OUTCOMES, int()));
const ms = nullable(int({ description: 'estimated from a fixed latency histogram (bucket width)' }));

const statsResponse = object({
  window: enumOf(Object.keys(STATS_WINDOWS)),
  endpoint_id: nullable(str()),
  from: timestamp,
  to: timestamp,
  step_seconds: int(),
  totals: counts,
  p50_ms: ms,
  p95_ms: ms,
  retry_backlog: object({ count: int(), capped: bool }),
  points: Type.Array(object({ at: timestamp, outcomes: counts, p50_ms: ms, p95_ms: ms })),
});

/**
 * The console's charts: delivery outcomes per step and attempt latency p50/p95 over the last hour
 * (1-minute steps) or day (10-minute steps), and the retry backlog, from the per-minute counters
 * the dispatchers write (libs/operations delivery-stats), never by scanning deliveries.
 */
export const deliveryStatsRoutes: RouteFile<GatewayDeps> = ({ store, now }) => [
  {
    method: 'get',
    path: '/v1/projects/:projectID/delivery-stats',
    operationId: 'getDeliveryStats',
    summary: 'Deliveries per minute by outcome, latency p50/p95 and the retry backlog',
    tag: 'Event deliveries',
    auth: 'project',
    query: {
      window: enumOf(Object.keys(STATS_WINDOWS)),
      endpointId: idQuery("one endpoint's figures (default: the whole project)"),
    },
    status: 200,
    message: 'Delivery statistics',
    response: statsResponse,
    async handler({ project, query }) {
      const window = (query.window as StatsWindow | undefined) ?? 'hour';
      const endpointId = (query.endpointId as string | undefined) ?? null;
      if (endpointId && !(await store.endpoints.findById(project._id, endpointId)))
        throw new NotFoundError('endpoint');
      const s = await deliveryStats(store, project._id, { window, endpointId, now: now().getTime() });
      return {
        window,
        endpoint_id: endpointId,
        from: toTimestamp(s.from),
        to: toTimestamp(s.to),
        step_seconds: s.stepMinutes * 60,
        totals: s.totals,
        p50_ms: s.p50_ms,
        p95_ms: s.p95_ms,
        retry_backlog: s.backlog,
        points: s.points.map((p) => ({ ...p, at: toTimestamp(p.at) })),
      };
    },
  },
];
