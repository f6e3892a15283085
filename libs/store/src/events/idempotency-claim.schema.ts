import { Schema, type Connection } from 'mongoose';
import type { ProjectId } from '@hookrail/domain';

/**
 * The first event of a project with a given idempotency key owns the key. `_id` is a hash of
 * (project id, key), so the primary key itself makes the claim race-free without transactions or
 * partial indexes; a redelivered original finds its own event id and stays the original.
 */
export interface IdempotencyClaimDoc {
  _id: string;
  project_id: ProjectId;
  event_id: string;
  created_at: Date;
}

const idempotencyClaimSchema = new Schema<IdempotencyClaimDoc>(
  {
    _id: { type: String, required: true },
    project_id: { type: String, required: true },
    event_id: { type: String, required: true },
    created_at: { type: Date, required: true },
  },
  { collection: 'idempotency_claims', versionKey: false, _id: false },
);
// Only read by _id (the primary key is the claim).

export const idempotencyClaimModel = (conn: Connection) =>
  conn.models.IdempotencyClaim ?? conn.model<IdempotencyClaimDoc>('IdempotencyClaim', idempotencyClaimSchema);
