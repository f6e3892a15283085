import type { ProjectId } from '@hookrail/domain';

/** A document named by its id within its project. */
export interface ScopedId {
  projectId: ProjectId;
  id: string;
}

/**
 * One filter matching every given document, each by its id within its own project, so a batch
 * of several projects' documents is one round trip. `idField`: where the id is (another
 * collection's documents that belong to these).
 */
export function scopedIdsFilter(
  entries: readonly ScopedId[],
  extra: Record<string, unknown> = {},
  idField = '_id',
): Record<string, unknown> {
  const byProject = new Map<ProjectId, string[]>();
  for (const { projectId, id } of entries) {
    if (!projectId) throw new Error('project id is required for every query');
    const ids = byProject.get(projectId);
    if (ids) ids.push(id);
    else byProject.set(projectId, [id]);
  }
  const scoped = [...byProject].map(([projectId, ids]) => ({
    project_id: projectId,
    ...extra,
    [idField]: { $in: ids },
  }));
  return scoped.length === 1 ? scoped[0] : { $or: scoped };
}

/**
 * Ids per query when documents are read by id in batches. The local server matches a `$in` at a
 * cost that grows with its length, on top of a fixed cost per query: a sender's read of a delivery
 * took 0.16 ms of its CPU in batches of 10–25, 0.21 in 50, 0.25 in 100, 0.29 in 200 and 0.78 one
 * at a time (`npm run bench:db` with BENCH_BATCH).
 */
export const IDS_PER_QUERY = 25;

/**
 * `read` over the entries in runs of at most `size`, one query after another, the results in
 * order. Not at once: overlapping queries cost that server more than the long `$in` they replace
 * (a batch of 200 deliveries: 0.26–0.41 ms each as one query, 0.16–0.18 in runs one after
 * another, 0.33 in runs at once).
 */
export async function readInRuns<E, R>(
  entries: readonly E[],
  read: (run: E[]) => Promise<R[]>,
  size = IDS_PER_QUERY,
): Promise<R[]> {
  const found: R[] = [];
  for (let i = 0; i < entries.length; i += size) found.push(...(await read(entries.slice(i, i + size))));
  return found;
}
