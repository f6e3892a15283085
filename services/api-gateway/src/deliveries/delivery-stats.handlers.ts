import { NotFoundError, toTimestamp } from '@hookrail/domain';
import { deliveryStats, type StatsWindow } from '@hookrail/operations';
import type { GatewayDeps } from '../deps';
import { deliveryStatsOperations } from '@hookrail/api-contract';
import type { Handlers } from '../http/call';

export function deliveryStatsHandlers({ store, now }: GatewayDeps): Handlers<typeof deliveryStatsOperations> {
  return {
    async getDeliveryStats({ project, query }) {
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
  };
}
