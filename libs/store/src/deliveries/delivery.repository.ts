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
          // By _id alone: the MongoDB-protocol test server (SQLite) only pushes `_id` equality down;
          // the id was read within the project, so scoping holds.
          filter: { _id: u.id },
          update: { ...u.update, $set: { ...(u.update.$set ?? {}), updated_at: now } },
        },
      })) as AnyBulkWriteOperation<DeliveryDoc>[],
      { ordered: false },
    );
  }

  /**
   * The hot-path read of the sender: by `_id` alone (the only filter the MongoDB-protocol test
   * server serves without a scan), with project and soft-delete checked here.
   */
  async findForSend(projectId: string, id: string): Promise<DeliveryDoc | null> {
    const d = await this.model.findOne({ _id: id }).lean<DeliveryDoc>().exec();
    return d && d.project_id === projectId && !d.deleted_at ? d : null;
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
