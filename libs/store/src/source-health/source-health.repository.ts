import type { Connection, Model } from 'mongoose';
import { sourceHealthModel, type SourceHealthDoc, type SourceHealthState } from './source-health.schema';
import type { ProjectId } from '@hookrail/domain';

export class SourceHealthRepository {
  private readonly model: Model<SourceHealthDoc>;

  constructor(conn: Connection) {
    this.model = sourceHealthModel(conn) as Model<SourceHealthDoc>;
  }

  /**
   * Records the source's current state (an upsert: one document per source). A state other than
   * consuming forgets the lag: it is unknown until the stream reads again.
   */
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
        {
          $set: {
            project_id: projectId,
            state,
            error,
            instance_id: instanceId,
            updated_at: new Date(),
            ...(state === 'consuming' ? {} : { lag_seconds: null, behind_bytes: null, behind_changes: null }),
          },
        },
        { upsert: true },
      )
      .exec();
  }

  /**
   * Records how far a change stream is behind, on the source's existing state (no upsert: a state
   * is reported first). Null leaves a figure unknown.
   */
  async reportLag(
    projectId: ProjectId,
    sourceId: string,
    lag: { lag_seconds: number | null; behind_bytes: number | null; behind_changes: number | null },
  ): Promise<void> {
    await this.model.updateOne({ _id: sourceId, project_id: projectId }, { $set: lag }).exec();
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
