import type { AuditRecord } from '@hookrail/api-contract';
import type { Connection, Model } from 'mongoose';
import { insertIgnoringExisting } from '../base/insert-ignoring-existing';
import { auditOutboxModel, type AuditOutboxDoc } from './audit-outbox.schema';

export class AuditOutboxRepository {
  private readonly model: Model<AuditOutboxDoc>;

  constructor(conn: Connection) {
    this.model = auditOutboxModel(conn) as Model<AuditOutboxDoc>;
  }

  /** Keeps records for a later publish; one already kept is kept once. */
  async add(records: readonly AuditRecord[]): Promise<void> {
    const now = new Date();
    await insertIgnoringExisting(
      this.model,
      records.map((record) => ({ _id: record.uid, record, created_at: now })),
    );
  }

  /** The oldest kept records, at most `limit`. */
  async oldest(limit: number): Promise<AuditRecord[]> {
    const docs = await this.model.find({}).sort({ _id: 1 }).limit(limit).lean<AuditOutboxDoc[]>().exec();
    return docs.map((d) => d.record);
  }

  /** Forgets records once published. */
  async remove(uids: readonly string[]): Promise<void> {
    if (uids.length > 0) await this.model.deleteMany({ _id: { $in: [...uids] } }).exec();
  }

  async count(): Promise<number> {
    return this.model.countDocuments({}).exec();
  }
}
