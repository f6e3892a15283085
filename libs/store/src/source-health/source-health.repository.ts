import type { Connection, Model } from 'mongoose';
import { sourceHealthModel, type SourceHealthDoc, type SourceHealthState } from './source-health.schema';
import type { ProjectId } from '@hookrail/domain';

export class SourceHealthRepository {
  private readonly model: Model<SourceHealthDoc>;

  constructor(conn: Connection) {
    this.model = sourceHealthModel(conn) as Model<SourceHealthDoc>;
  }

  /** Records the source's current state (an upsert: one document per source). */
  async report(
    projectId: ProjectId,
    sourceId: string,
    state: SourceHealthState,
    error: string | null,
    instanceId: string,
  ): Promise<void> {
    await this.model
      .updateOne(
        { _id: sourceId },
        { $set: { project_id: projectId, state, error, instance_id: instanceId, updated_at: new Date() } },
        { upsert: true },
      )
      .exec();
  }

  async find(projectId: ProjectId, sourceId: string): Promise<SourceHealthDoc | null> {
    return this.model.findOne({ _id: sourceId, project_id: projectId }).lean<SourceHealthDoc>().exec();
  }

  async findMany(projectId: ProjectId, sourceIds: readonly string[]): Promise<SourceHealthDoc[]> {
    if (sourceIds.length === 0) return [];
    return this.model
      .find({ _id: { $in: [...sourceIds] }, project_id: projectId })
      .lean<SourceHealthDoc[]>()
      .exec();
  }
}
