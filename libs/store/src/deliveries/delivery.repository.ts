import type { AnyBulkWriteOperation, Connection, Model, UpdateQuery } from 'mongoose';
import { ProjectScopedRepository } from '../base/project-scoped.repository';
import { insertIgnoringExisting } from '../base/insert-ignoring-existing';
import { deliveryModel, type DeliveryDoc, type DeliveryStatus } from './delivery.schema';

export interface DeliveryUpdate {
  projectId: string;
  id: string;
  update: UpdateQuery<DeliveryDoc>;
}

export class DeliveryRepository extends ProjectScopedRepository<DeliveryDoc> {
  constructor(conn: Connection) {
    super(deliveryModel(conn) as Model<DeliveryDoc>);
  }

  /** Inserts deliveries that do not exist yet (ids are deterministic), in one round trip. */
  async insertManyIfAbsent(docs: DeliveryDoc[]): Promise<void> {
    if (docs.length === 0) return;
    await insertIgnoringExisting(this.model, docs);
  }

  /** Applies several updates (attempt records, status changes) in one round trip. */
  async applyUpdates(updates: DeliveryUpdate[]): Promise<void> {
    if (updates.length === 0) return;
    const now = new Date();
    await this.model.bulkWrite(
      updates.map((u) => ({
        updateOne: {
          filter: { _id: u.id, project_id: u.projectId },
          update: { ...u.update, $set: { ...(u.update.$set ?? {}), updated_at: now } },
        },
      })) as AnyBulkWriteOperation<DeliveryDoc>[],
      { ordered: false },
    );
  }

  /** Statuses of an event's deliveries (the event's own status is derived from them). */
  async statusesOfEvent(projectId: string, eventId: string): Promise<DeliveryStatus[]> {
    const rows = await this.model
      .find(this.scope(projectId, { event_id: eventId }), { status: 1 })
      .lean<{ status: DeliveryStatus }[]>()
      .exec();
    return rows.map((r) => r.status);
  }
}
