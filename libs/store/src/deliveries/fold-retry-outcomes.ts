import type { DeliveryAttempt, DeliveryDoc } from './delivery.schema';
import type { RetryOutcomeDoc } from './retry-outcome.schema';

/**
 * A delivery as read: its document with the retry outcomes appended beside it (retry-outcome.schema.ts).
 * Every appended outcome is an attempt that spent a retry, so both counters grow by their number
 * and the attempts are merged in time order (a document read without its attempts stays without).
 * Only outcomes appended since the document's last write (the same `rev`) say where the delivery
 * stands now (its next attempt, its reason), and only while the document still says `Retry`: a
 * later write (a resend, a hold, the final outcome) supersedes them.
 */
export function foldRetryOutcomes<D extends DeliveryDoc>(doc: D, outcomes: readonly RetryOutcomeDoc[]): D {
  if (outcomes.length === 0) return doc;
  const folded: D = {
    ...doc,
    attempts_made: doc.attempts_made + outcomes.length,
    retries_used: doc.retries_used + outcomes.length,
    ...(doc.attempts && { attempts: inTimeOrder([...doc.attempts, ...outcomes.map((o) => o.attempt)]) }),
  };
  const rev = doc.rev ?? 0;
  const current = outcomes.filter((o) => o.rev === rev).reduce<RetryOutcomeDoc | null>(later, null);
  if (!current || doc.status !== 'Retry') return folded;
  return {
    ...folded,
    next_attempt_at: current.next_attempt_at,
    status_reason: current.status_reason,
    updated_at: current.updated_at > doc.updated_at ? current.updated_at : doc.updated_at,
  };
}

/**
 * Where a delivery in `Retry` stands after a retry outcome appended for it: what the process that
 * appended it knows without reading the outcomes back (retryStateAfter).
 */
export interface RetryState {
  /** The document's `rev` the outcome was appended under. */
  rev: number;
  attempts_made: number;
  retries_used: number;
  next_attempt_at: Date | null;
  status_reason: string | null;
}

/**
 * The delivery with a known state applied in place of its appended outcomes, or null when the
 * state does not hold: the document was written since (another `rev`) or is no longer in `Retry`.
 * Only the process that appends a delivery's outcomes may know its state (libs/delivery
 * RetryStates), so none was appended since that it does not know of.
 */
export function withRetryState<D extends DeliveryDoc>(doc: D, state: RetryState): D | null {
  if (doc.status !== 'Retry' || (doc.rev ?? 0) !== state.rev) return null;
  const { rev: _rev, ...standing } = state;
  return { ...doc, ...standing };
}

/** The deliveries that may have retry outcomes appended: only one that has spent a retry. */
export function mayHaveRetryOutcomes(doc: Pick<DeliveryDoc, 'retries_used'>): boolean {
  return doc.retries_used > 0;
}

function later(a: RetryOutcomeDoc | null, b: RetryOutcomeDoc): RetryOutcomeDoc {
  return a && byTime(a.attempt, b.attempt) > 0 ? a : b;
}

function inTimeOrder(attempts: DeliveryAttempt[]): DeliveryAttempt[] {
  return attempts.sort(byTime);
}

/** Attempt time, then uid (a ULID) for attempts recorded in the same millisecond. */
function byTime(a: DeliveryAttempt, b: DeliveryAttempt): number {
  const t = new Date(a.created_at).getTime() - new Date(b.created_at).getTime();
  return t !== 0 ? t : a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0;
}
