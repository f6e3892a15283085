import type { Connection, Model } from 'mongoose';
import type { ProjectId } from '@hookrail/domain';
import { SoftDeletingRepository } from '../base/project-scoped.repository';
import { eventCatalogModel, type EventCatalogDoc } from './event-catalog.schema';

export class EventCatalogRepository extends SoftDeletingRepository<EventCatalogDoc> {
  constructor(conn: Connection) {
    super(eventCatalogModel(conn) as Model<EventCatalogDoc>);
  }

  /** The project's live event types in name order, at most `limit` (a catalog is bounded by the caller). */
  async listAll(projectId: ProjectId, limit: number): Promise<EventCatalogDoc[]> {
    return this.model
      .find(this.scope(projectId))
      .sort({ name: 1 })
      .limit(limit)
      .lean<EventCatalogDoc[]>()
      .exec();
  }

  /** The live event type with this name (names are unique within a project). */
  async findByName(projectId: ProjectId, name: string): Promise<EventCatalogDoc | null> {
    return this.findOneWhere(projectId, { name });
  }
}
