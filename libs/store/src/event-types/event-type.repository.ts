import type { Connection, Model } from 'mongoose';
import type { ProjectId } from '@hookrail/domain';
import { rawCollection } from '../base/raw-collection';
import { eventTypeSeenModel, type EventTypeSeenDoc } from './event-type.schema';

export interface EventTypeSighting {
  projectId: ProjectId;
  endpointId: string;
  eventType: string;
  at: Date;
}

export class EventTypeRepository {
  private readonly model: Model<EventTypeSeenDoc>;

  constructor(conn: Connection) {
    this.model = eventTypeSeenModel(conn) as Model<EventTypeSeenDoc>;
  }

  /** Records sightings in one unordered bulk write of upserts, each scoped to its project. */
  async recordSeen(rows: readonly EventTypeSighting[]): Promise<void> {
    if (rows.length === 0) return;
    await rawCollection(this.model).bulkWrite(
      rows.map((r) => ({
        updateOne: {
          filter: { _id: `${r.projectId}|${r.endpointId}|${r.eventType}`, project_id: r.projectId },
          update: {
            $setOnInsert: { endpoint_id: r.endpointId, event_type: r.eventType, first_seen_at: r.at },
            $max: { last_seen_at: r.at },
          },
          upsert: true,
        },
      })),
      { ordered: false },
    );
  }

  /** The types these endpoints of the project were sent, at most `limit` documents. */
  async listForEndpoints(
    projectId: ProjectId,
    endpointIds: readonly string[],
    limit: number,
  ): Promise<EventTypeSeenDoc[]> {
    if (endpointIds.length === 0) return [];
    return this.model
      .find({ project_id: projectId, endpoint_id: { $in: [...endpointIds] } })
      .limit(limit)
      .lean<EventTypeSeenDoc[]>()
      .exec();
  }
}
