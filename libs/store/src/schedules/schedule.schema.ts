import type { Connection } from 'mongoose';
import { Schema } from 'mongoose';
import type { ProjectId } from '@hookrail/domain';

/**
 * A due-time entry of the retry-scheduler: one per retry message (a delivery, or a meta event,
 * waiting to be sent again). Entries are written once and deleted once fired or superseded, never
 * updated (docs/decisions.md, "Retry scheduler"). `shard` (`<topic prefix>/<partition of the retries topic>`) names the replica
 * that owns the entry: the one the Kafka group assigned that partition to.
 */
export interface ScheduleDoc {
  /** `<kind>:<delivery id>@<due ms>`: a redelivered retry message maps to the same entry. */
  _id: string;
  shard: string;
  kind: 'delivery' | 'meta';
  /** The delivery (or meta event) id. */
  target_id: string;
  project_id: ProjectId;
  endpoint_id: string;
  event_id: string | null;
  meta_event_type: string | null;
  due_at: Date;
  reason: string;
  /** W3C trace context of the work that scheduled the retry: the retry continues its trace. */
  traceparent?: string | null;
  tracestate?: string | null;
  created_at: Date;
}

const scheduleSchema = new Schema<ScheduleDoc>(
  {
    _id: { type: String, required: true },
    shard: { type: String, required: true },
    kind: { type: String, default: 'delivery' },
    target_id: { type: String, required: true },
    project_id: { type: String, required: true },
    endpoint_id: { type: String, default: '' },
    event_id: { type: String, default: null },
    meta_event_type: { type: String, default: null },
    due_at: { type: Date, required: true },
    reason: { type: String, default: 'failed' },
    traceparent: { type: String, default: null },
    tracestate: { type: String, default: null },
    created_at: { type: Date, required: true },
  },
  { collection: 'schedules', versionKey: false, _id: false },
);
// schedules.findByShards: a replica loading the entries of the partitions it was just assigned,
// in insertion order
scheduleSchema.index({ shard: 1, created_at: 1, _id: 1 });

export const scheduleModel = (conn: Connection) =>
  conn.models.Schedule ?? conn.model<ScheduleDoc>('Schedule', scheduleSchema);
