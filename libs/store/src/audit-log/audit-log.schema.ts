import type { AuditRecord } from '@hookrail/api-contract';
import type { Connection } from 'mongoose';
import { Schema } from 'mongoose';

/**
 * One state-changing call (the audit log, docs/access.md). Written once by the meta-event service
 * from the `audit` topic and never updated: no repository method changes or deletes a record but
 * the project's retention and purge. `project_id` is null for the instance's own calls (a project
 * created with the admin key).
 */
export interface AuditDoc extends Omit<AuditRecord, 'uid' | 'created_at'> {
  /** A ULID made at the call: records sort by time and a redelivered message is one record. */
  _id: string;
  created_at: Date;
}

const auditSchema = new Schema<AuditDoc>(
  {
    _id: { type: String, required: true },
    project_id: { type: String, default: null },
    actor: { type: Schema.Types.Mixed, required: true },
    operation: { type: String, required: true },
    method: { type: String, required: true },
    path: { type: String, required: true },
    resource: { type: Schema.Types.Mixed, required: true },
    changes: { type: Schema.Types.Mixed, default: null },
    fields: { type: [String], default: [] },
    status: { type: Number, required: true },
    ip: { type: String, default: '' },
    user_agent: { type: String, default: '' },
    created_at: { type: Date, required: true },
    // sent events' records only (count, first_at, last_at, event_ids): absent on the others
    aggregate: { type: Schema.Types.Mixed, default: undefined },
  },
  { collection: 'audit_log', versionKey: false, minimize: false, _id: false },
);
// auditLog.page: a project's records newest first (the instance-wide list reads the _id index)
auditSchema.index({ project_id: 1, _id: -1 });

export const auditModel = (conn: Connection) =>
  conn.models.AuditRecord ?? conn.model<AuditDoc>('AuditRecord', auditSchema);
