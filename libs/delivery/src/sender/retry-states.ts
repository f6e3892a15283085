import { retryStateAfter, type DeliveryOutcome, type RetryState, type ScopedId } from '@hookrail/store';
import { boundedLru } from '@hookrail/toolbox';

/** Deliveries remembered at once: about 10 MB at most. */
const MAX_STATES = 50_000;

/**
 * Where the deliveries whose failed retries this process appended stand (libs/store
 * fold-retry-outcomes.ts), so that their next send reads their document alone instead of every
 * outcome appended so far (on the local server that read grew to most of a retry's cost). Only
 * the process sending a delivery appends its outcomes, and a delivery is sent by the owner of its
 * endpoint's `deliveries` partition: what it remembers holds until its partitions move, so the
 * dispatcher forgets everything at every rebalance (`forget`). A state the document no longer
 * matches (written since: a resend, a hold, a final outcome) is not used (withRetryState).
 */
export class RetryStates {
  private readonly states = boundedLru<string, RetryState>(MAX_STATES);

  /** An outcome made durable: where it left the delivery when in `Retry`, else forgotten. */
  recorded(o: DeliveryOutcome): void {
    const key = keyOf({ projectId: o.delivery.project_id, id: o.delivery._id });
    const state = retryStateAfter(o);
    if (state) this.states.set(key, state);
    else this.states.delete(key);
  }

  readonly known = (ref: ScopedId): RetryState | undefined => this.states.get(keyOf(ref));

  forget(): void {
    this.states.clear();
  }
}

const keyOf = (ref: ScopedId) => `${ref.projectId}/${ref.id}`;
