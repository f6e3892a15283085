import type { Connection, Model } from 'mongoose';
import type { ProjectId } from '@hookrail/domain';
import { changeStreamOffsetModel, type ChangeStreamOffsetDoc } from './change-stream-offset.schema';

export class ChangeStreamOffsetRepository {
  private readonly model: Model<ChangeStreamOffsetDoc>;

  constructor(conn: Connection) {
    this.model = changeStreamOffsetModel(conn) as Model<ChangeStreamOffsetDoc>;
  }

  async find(sourceId: string): Promise<ChangeStreamOffsetDoc | null> {
    return this.model.findOne({ _id: sourceId }).lean<ChangeStreamOffsetDoc>().exec();
  }

  /**
   * Records the resume point (an upsert). Journaled like every store write, so a point once
   * recorded survives a crash of the store's server too.
   */
  async save(
    projectId: ProjectId,
    sourceId: string,
    token: Record<string, unknown> | null,
    restartRequestedAt: string | null,
  ): Promise<void> {
    await this.model
      .updateOne(
        { _id: sourceId },
        {
          $set: {
            project_id: projectId,
            token,
            restart_requested_at: restartRequestedAt,
            updated_at: new Date(),
          },
        },
        { upsert: true },
      )
      .exec();
  }
}
