import type { Connection } from 'mongoose';
import { Mixed, scopedSchema } from '../base/schema';
import type { ScopedDoc } from '../base/project-scoped.repository';
import type { DeliveryAttempt } from './delivery.schema';

/**
 * A failed attempt of a delivery already in `Retry` that leaves it in `Retry`, appended rather
 * than written into the delivery's document (docs/database.md, "Retry outcomes"): the delivery as
 * read is its document with these folded in (fold-retry-outcomes.ts). `_id` is the attempt's uid;
 * `created_at` is the delivery's, so retention removes them with it.
 */
export interface RetryOutcomeDoc extends ScopedDoc {
  delivery_id: string;
  /** The delivery document's `rev` when the attempt was made: a later write of it supersedes this. */
  rev: number;
  attempt: DeliveryAttempt;
  status_reason: string | null;
  next_attempt_at: Date | null;
}

const retryOutcomeSchema = scopedSchema<RetryOutcomeDoc>(
  {
    delivery_id: { type: String, required: true },
    rev: { type: Number, default: 0 },
    attempt: { type: Mixed, required: true },
    status_reason: { type: String, default: null },
    next_attempt_at: { type: Date, default: null },
  },
  'delivery_retry_outcomes',
);
// Read by delivery, always with its project (migration 6).
retryOutcomeSchema.index({ project_id: 1, delivery_id: 1 });

export const retryOutcomeModel = (conn: Connection) =>
  conn.models.DeliveryRetryOutcome ?? conn.model<RetryOutcomeDoc>('DeliveryRetryOutcome', retryOutcomeSchema);
