import type { ProjectId } from '@hookrail/domain';
import type { Store } from '@hookrail/store';

export interface PurgeOptions {
  /** Documents deleted per collection per round trip. */
  batch?: number;
  /** Pause between batches, so a large project never holds the database for long. */
  pauseMs?: number;
  /** Deleted projects handled per run. */
  maxProjects?: number;
}

export interface PurgeResult {
  projects: number;
  documents: number;
}

/**
 * The second step of deleting a project: the API soft-deletes the project (from then on nothing
 * of it is readable, accepted or delivered), this removes everything it owned in batches —
 * endpoints, sources, subscriptions, events, deliveries with their attempts, meta events, API
 * keys, portal links, schedules — and last the project itself. Idempotent: a run stopped half-way
 * is finished by the next, and replicas running it at once only repeat deletes.
 */
export async function purgeDeletedProjects(store: Store, opts: PurgeOptions = {}): Promise<PurgeResult> {
  const result: PurgeResult = { projects: 0, documents: 0 };
  for (const project of await store.projects.listDeleted(opts.maxProjects ?? 10)) {
    result.documents += await purgeProject(store, project._id, opts);
    result.projects++;
  }
  return result;
}

/** Purges one deleted project (a live one is left alone); returns how many documents went. */
export async function purgeProject(
  store: Store,
  projectId: ProjectId,
  opts: PurgeOptions = {},
): Promise<number> {
  if (await store.projects.findById(projectId)) return 0;
  let documents = 0;
  for (;;) {
    const n = await store.purgeProjectData(projectId, opts.batch ?? 500);
    documents += n;
    if (n === 0) break;
    if (opts.pauseMs) await new Promise((r) => setTimeout(r, opts.pauseMs));
  }
  await store.projects.purge(projectId);
  return documents;
}
