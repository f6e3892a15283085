import type { Connection, Model } from 'mongoose';
import type { ProjectId } from '@hookrail/domain';
import { rawCollection } from '../base/raw-collection';
import { deleteProjectBatch } from '../base/delete-batch';
import { deliveryStatsModel, type DeliveryStatsDoc } from './delivery-stats.schema';

/** What to add to one minute of one endpoint (or of the project's "*" row). */
export interface DeliveryStatsIncrement {
  projectId: ProjectId;
  endpointId: string;
  /** Start of the minute (epoch ms, a multiple of 60,000). */
  minute: number;
  outcomes: Record<string, number>;
  /** Attempts to add per latency bucket index. */
  latency: Record<number, number>;
}

export class DeliveryStatsRepository {
  private readonly model: Model<DeliveryStatsDoc>;

  constructor(conn: Connection) {
    this.model = deliveryStatsModel(conn) as Model<DeliveryStatsDoc>;
  }

  /** Adds many increments in one unordered bulk write of `$inc` upserts, each scoped to its project. */
  async increment(rows: readonly DeliveryStatsIncrement[]): Promise<void> {
    if (rows.length === 0) return;
    await rawCollection(this.model).bulkWrite(
      rows.map((r) => {
        const inc: Record<string, number> = {};
        for (const [status, n] of Object.entries(r.outcomes)) inc[`outcomes.${status}`] = n;
        for (const [bucket, n] of Object.entries(r.latency)) inc[`latency.${bucket}`] = n;
        return {
          updateOne: {
            filter: { _id: `${r.projectId}|${r.endpointId}|${r.minute}`, project_id: r.projectId },
            update: { $inc: inc, $setOnInsert: { endpoint_id: r.endpointId, minute: new Date(r.minute) } },
            upsert: true,
          },
        };
      }),
      { ordered: false },
    );
  }

  /** Deletes up to `batch` of the project's minutes before `before`; returns how many went. */
  async deleteBefore(projectId: ProjectId, before: Date, batch: number): Promise<number> {
    return deleteProjectBatch(this.model.collection, projectId, { minute: { $lt: before } }, batch);
  }

  /** The minutes of one endpoint (or ALL_ENDPOINTS) in [from, to), oldest first (≤ 1,440 a day). */
  async series(projectId: ProjectId, endpointId: string, from: Date, to: Date): Promise<DeliveryStatsDoc[]> {
    return this.model
      .find({ project_id: projectId, endpoint_id: endpointId, minute: { $gte: from, $lt: to } })
      .sort({ minute: 1 })
      .lean<DeliveryStatsDoc[]>()
      .exec();
  }
}
