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
