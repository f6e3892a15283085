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

/** Ids per query when documents are read by id in batches (readInRuns). */
export const IDS_PER_QUERY = 25;

/**
 * `read` over the entries in runs of at most `size`, one query after another, the results in
 * order. The local server pays more per id the longer a `$in`, and more for overlapping queries
 * than for the long one they replace (docs/database.md, "A long `$in` costs more per id").
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
