import { errorMessage } from '@hookrail/domain';
import type { Store } from '@hookrail/store';
import type { Logger } from '@hookrail/telemetry';
import { applyRetention } from './apply-retention.usecase';
import { purgeDeletedProjects } from './purge-deleted-projects.usecase';

export interface HousekeepingDeps {
  store: Store;
  logger: Logger;
}

/**
 * Background clean-up on a timer, one run at a time, off every request and delivery path: purges
 * deleted projects, then deletes history past each project's retention period, both in batches.
 * A failed run (database down) is logged and tried at the next tick.
 */
export function startHousekeeping(deps: HousekeepingDeps, intervalMs: number): { stop: () => Promise<void> } {
  let running: Promise<void> | null = null;
  let stopped = false;
  const run = async () => {
    try {
      const purged = await purgeDeletedProjects(deps.store, { pauseMs: 20 });
      if (purged.projects > 0) deps.logger.info(purged, 'deleted projects purged');
      const expired = await applyRetention(deps.store, { pauseMs: 20 });
      if (expired > 0) deps.logger.info({ documents: expired }, 'history past its retention period deleted');
    } catch (err) {
      deps.logger.warn({ error: errorMessage(err) }, 'housekeeping run failed; next run tries again');
    }
  };
  const timer = setInterval(() => {
    if (running || stopped) return;
    running = run().finally(() => (running = null));
  }, intervalMs);
  timer.unref();
  return {
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
