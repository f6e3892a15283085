import type { AuditRecord } from '@hookrail/api-contract';
import type { Connection } from 'mongoose';
import { Schema } from 'mongoose';

/**
 * An audit record the gateway could not publish to the `audit` topic in time (Kafka down or slow),
 * kept until a background loop publishes it (docs/access.md, "When Kafka is down"). By the record's
 * uid: the meta-event service stores by the same id, so a record published twice is one record.
 */
export interface AuditOutboxDoc {
  _id: string;
  record: AuditRecord;
  created_at: Date;
}

const auditOutboxSchema = new Schema<AuditOutboxDoc>(
  {
    _id: { type: String, required: true },
    record: { type: Schema.Types.Mixed, required: true },
    created_at: { type: Date, required: true },
  },
  { collection: 'audit_outbox', versionKey: false, _id: false, minimize: false },
);
// Read oldest first by _id (a ULID made at the call): the _id index serves it.

export const auditOutboxModel = (conn: Connection) =>
  conn.models.AuditOutbox ?? conn.model<AuditOutboxDoc>('AuditOutbox', auditOutboxSchema);
