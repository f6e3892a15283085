import type { ProjectId } from '@hookrail/domain';
import { DEFAULT_PROJECT_CONFIG, type ProjectDoc, type Store } from '@hookrail/store';

export interface RetentionOptions {
  now?: number;
  /** Documents deleted per collection per round trip. */
  batch?: number;
  /** Pause between batches, so the sweep never holds the database for long. */
  pauseMs?: number;
  /** Projects read per page while walking all of them. */
  pageSize?: number;
}

/** How long the per-minute delivery counters are kept (the console's charts read the last day). */
export const STATS_KEPT_MS = 2 * 24 * 3600_000;

/** When a project's history expires: its `retention_seconds` (default 30 days) before `now`. */
export function retentionCutoff(project: Pick<ProjectDoc, 'config'>, now: number): Date {
  const seconds = project.config?.retention_seconds ?? DEFAULT_PROJECT_CONFIG.retention_seconds;
  return new Date(now - seconds * 1000);
}

/**
 * The retention sweep: for every live project, deletes the events (with their idempotency
 * claims), deliveries (with their attempts) and meta events created longer ago than the project's
 * retention period (and per-minute delivery counters older than STATS_KEPT_MS), in batches with a pause between them. Runs in the background (housekeeping),
 * never on the path of a request or a delivery. Returns how many documents went.
 */
export async function applyRetention(store: Store, opts: RetentionOptions = {}): Promise<number> {
  const now = opts.now ?? Date.now();
  let deleted = 0;
  let after: ProjectId | null = null;
  for (;;) {
    const page = await store.projects.listLiveAfter(after, opts.pageSize ?? 100);
    for (const project of page) deleted += await expireProjectHistory(store, project, now, opts);
    if (page.length === 0) return deleted;
    after = page[page.length - 1]._id;
  }
}

/** One project's part of the sweep. */
export async function expireProjectHistory(
  store: Store,
  project: Pick<ProjectDoc, 'config'> & { _id: ProjectId },
  now: number,
  opts: Omit<RetentionOptions, 'now' | 'pageSize'> = {},
): Promise<number> {
  const cutoff = retentionCutoff(project, now);
  // The charts' counters are read for one day at most: kept two, or less with a shorter retention.
  const statsCutoff = new Date(Math.max(cutoff.getTime(), now - STATS_KEPT_MS));
  let deleted = 0;
  for (;;) {
    const n =
      (await store.deleteProjectHistoryBefore(project._id, cutoff, opts.batch ?? 500)) +
      (await store.deliveryStats.deleteBefore(project._id, statsCutoff, opts.batch ?? 500));
    deleted += n;
    if (n === 0) return deleted;
    if (opts.pauseMs) await new Promise((r) => setTimeout(r, opts.pauseMs));
  }
}
