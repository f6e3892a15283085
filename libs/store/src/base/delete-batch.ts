import type { mongo } from 'mongoose';
import type { ProjectId } from '@hookrail/domain';

/**
 * Deletes up to `batch` of the project's documents matching `filter` and returns how many went.
 * The ids are read first (limited), so each delete is bounded on every server and a long purge or
 * retention pass proceeds in steps other writes can interleave with.
 */
export async function deleteProjectBatch(
  coll: mongo.Collection<mongo.Document>,
  projectId: ProjectId,
  filter: mongo.Filter<mongo.Document>,
  batch: number,
): Promise<number> {
  const found = await coll
    .find({ ...filter, project_id: projectId }, { projection: { _id: 1 }, limit: batch })
    .toArray();
  if (found.length === 0) return 0;
  const res = await coll.deleteMany({ _id: { $in: found.map((d) => d._id) }, project_id: projectId });
  return res.deletedCount;
}
