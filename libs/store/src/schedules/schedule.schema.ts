import type { Connection } from 'mongoose';
import { Schema } from 'mongoose';

/**
 * A due-time entry of the retry-scheduler, one per delivery (or meta event) waiting to be sent.
 * Replicas claim due entries with a lease; an expired lease is claimable again.
 */
export interface ScheduleDoc {
  _id: string;
  project_id: string;
  kind: 'delivery' | 'meta';
  endpoint_id: string;
  event_id: string | null;
  due_at: Date;
  reason: string;
  lease_owner: string | null;
  lease_until: Date | null;
  created_at: Date;
}

export const scheduleSchema = new Schema<ScheduleDoc>(
  {
    _id: { type: String, required: true },
    project_id: { type: String, required: true },
    kind: { type: String, default: 'delivery' },
    endpoint_id: { type: String, default: '' },
    event_id: { type: String, default: null },
    due_at: { type: Date, required: true },
    reason: { type: String, default: 'failed' },
    lease_owner: { type: String, default: null },
    lease_until: { type: Date, default: null },
    created_at: { type: Date, required: true },
  },
  { collection: 'schedules', versionKey: false, _id: false },
);
// the scheduler's poll: entries due now whose lease is free or expired
scheduleSchema.index({ due_at: 1, lease_until: 1 });

export const scheduleModel = (conn: Connection) =>
  conn.models.Schedule ?? conn.model<ScheduleDoc>('Schedule', scheduleSchema);
