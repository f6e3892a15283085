import type { Connection } from 'mongoose';
import { Schema } from 'mongoose';
import type { ProjectId } from '@hookrail/domain';

/**
 * States a broker source's consumer reports (source-consumer), shown by the API. `resume_lost`: a
 * change stream's resume point is gone from the database; it waits for a restart from now.
 */
export const SOURCE_HEALTH_STATES = [
  'connecting',
  'consuming',
  'unreachable',
  'resume_lost',
  'stopped',
] as const;
export type SourceHealthState = (typeof SOURCE_HEALTH_STATES)[number];

/**
 * The last state of a broker source's consumer: one document per source, replaced on each state
 * change by the replica that runs it (never per message).
 */
export interface SourceHealthDoc {
  /** The source id. */
  _id: string;
  project_id: ProjectId;
  state: SourceHealthState;
  /** Why the broker is unreachable (no credentials in it). */
  error: string | null;
  /** The source-consumer replica that runs the source. */
  instance_id: string;
  /** Change streams: seconds between the newest change read and its reading (0: caught up). */
  lag_seconds?: number | null;
  /** Postgres change streams: WAL bytes between the server's position and the slot's confirmed one. */
  behind_bytes?: number | null;
  behind_changes?: number | null;
  updated_at: Date;
}

const sourceHealthSchema = new Schema<SourceHealthDoc>(
  {
    _id: { type: String, required: true },
    project_id: { type: String, required: true },
    state: { type: String, required: true },
    error: { type: String, default: null },
    instance_id: { type: String, required: true },
    lag_seconds: { type: Number, default: null },
    behind_bytes: { type: Number, default: null },
    behind_changes: { type: Number, default: null },
    updated_at: { type: Date, required: true },
  },
  { collection: 'source_health', versionKey: false, _id: false },
);
// sourceHealth.find / findMany by _id (source id) with project_id checked: the _id index serves it.

export const sourceHealthModel = (conn: Connection) =>
  conn.models.SourceHealth ?? conn.model<SourceHealthDoc>('SourceHealth', sourceHealthSchema);
