import type { ProjectId } from '@hookrail/domain';
import { ALL_ENDPOINTS, type Store } from '@hookrail/store';
import { buildSeries, windowRange, type StatsSeries, type StatsWindow } from './stats-series';

/** The retry backlog is counted up to this many (an index-bounded count, cheap at any size). */
export const BACKLOG_CAP = 1_000;

export interface DeliveryStats extends StatsSeries {
  /** Deliveries waiting for a retry now, at most BACKLOG_CAP (`capped`: there are at least that many). */
  backlog: { count: number; capped: boolean };
}

/**
 * The console's charts of a project or one endpoint: per-minute counters (≤ 1,440 small documents
 * a day, read by an index range) and the retry backlog. No delivery is scanned.
 */
export async function deliveryStats(
  store: Pick<Store, 'deliveryStats' | 'deliveries'>,
  projectId: ProjectId,
  opts: { window: StatsWindow; endpointId: string | null; now: number },
): Promise<DeliveryStats> {
  const { from, to } = windowRange(opts.window, opts.now);
  const [docs, backlog] = await Promise.all([
    store.deliveryStats.series(projectId, opts.endpointId ?? ALL_ENDPOINTS, from, to),
    store.deliveries.countWithStatus(projectId, 'Retry', opts.endpointId, BACKLOG_CAP),
  ]);
  return {
    ...buildSeries(docs, opts.window, opts.now),
    backlog: { count: backlog, capped: backlog >= BACKLOG_CAP },
  };
}
