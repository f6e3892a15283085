import { createHash } from 'node:crypto';
import type { AnyBulkWriteOperation, Connection, Model } from 'mongoose';
import { ProjectScopedRepository } from '../base/project-scoped.repository';
import { insertIgnoringExisting } from '../base/insert-ignoring-existing';
import { eventModel, type EventDoc, type EventStatus } from './event.schema';
import { idempotencyClaimModel, type IdempotencyClaimDoc } from './idempotency-claim.schema';

const DUPLICATE_KEY = 11000;

export class EventRepository extends ProjectScopedRepository<EventDoc> {
  private readonly claims: Model<IdempotencyClaimDoc>;

  constructor(conn: Connection) {
    super(eventModel(conn) as Model<EventDoc>);
    this.claims = idempotencyClaimModel(conn) as Model<IdempotencyClaimDoc>;
  }

  /** Claims an idempotency key for `eventId`; returns the id of the event that owns it (maybe another). */
  async claimIdempotencyKey(projectId: string, key: string, eventId: string): Promise<string> {
    const _id = createHash('sha256').update(`${projectId}\0${key}`).digest('base64url');
    try {
      await this.claims.create({ _id, project_id: projectId, event_id: eventId, created_at: new Date() });
      return eventId;
    } catch (err) {
      if ((err as { code?: number }).code !== DUPLICATE_KEY) throw err;
      const owner = await this.claims.findById(_id).lean<IdempotencyClaimDoc>().exec();
      if (!owner || owner.project_id !== projectId) throw err;
      return owner.event_id;
    }
  }

  /** Inserts events that do not exist yet, in one round trip; existing ids are left untouched. */
  async insertManyIfAbsent(docs: EventDoc[]): Promise<void> {
    if (docs.length === 0) return;
    await insertIgnoringExisting(this.model, docs);
  }

  /** Sets several events' statuses in one round trip. */
  async setStatuses(
    updates: { projectId: string; id: string; status: EventStatus; reason?: string | null }[],
  ): Promise<void> {
    if (updates.length === 0) return;
    const now = new Date();
    await this.model.bulkWrite(
      updates.map((u) => ({
        updateOne: {
          // By _id alone: the MongoDB-protocol test server (SQLite) only pushes `_id` equality down;
          // the id was read within the project, so scoping holds.
          filter: { _id: u.id },
          update: {
            $set: {
              status: u.status,
              updated_at: now,
              ...(u.reason !== undefined ? { status_reason: u.reason } : {}),
            },
          },
        },
      })) as AnyBulkWriteOperation<EventDoc>[],
      { ordered: false },
    );
  }
}
