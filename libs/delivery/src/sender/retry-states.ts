import {
  retryStateAfter,
  type DeliveryDoc,
  type DeliveryOutcome,
  type RetryState,
  type ScopedId,
} from '@hookrail/store';
import { byteBoundedLru } from '@hookrail/toolbox';

/** What the remembered deliveries may hold at once, payloads counted (about 32,000 without one). */
const MAX_BYTES = 32 * 1024 * 1024;
/** A remembered delivery's fields besides its payload, roughly. */
const ENTRY_OVERHEAD_BYTES = 1024;
/**
 * A delivery older than this is read again before each send: a project keeps its deliveries at
 * least an hour (`retention_seconds`), so a remembered one is never one retention has deleted.
 */
const UNREAD_FOR_MS = 30 * 60_000;

interface Remembered {
  state: RetryState;
  /** The delivery as its last recorded outcome left it, when that is certain (see `recorded`). */
  delivery?: DeliveryDoc;
}

/**
 * Where the deliveries whose failed attempts this process recorded stand (libs/store
 * fold-retry-outcomes.ts), so that their next send needs no read of the database: on the local
 * server that read cost about as much as recording the retry (docs/database.md). Only the
 * process sending a delivery records its outcomes, and a delivery is sent by the owner of its
 * endpoint's `deliveries` partition: what it remembers holds until its partitions move, so the
 * dispatcher forgets everything at every rebalance (`forget()`). The other writers of a delivery
 * (a manual resend, a hold's release) publish a message for it after writing: the sender forgets
 * the delivery when such a message comes (`forget(ref)`), and a retry sent in between is one
 * attempt more, as when a resend lands while an attempt is in flight.
 */
export class RetryStates {
  private readonly remembered = byteBoundedLru<string, Remembered>(
    MAX_BYTES,
    (r) => ENTRY_OVERHEAD_BYTES + (r.delivery?.payload?.length ?? 0),
  );

  /**
   * An outcome made durable: where it left the delivery when in `Retry`, else forgotten. After a
   * first record only the state is kept, to be checked against the document at the next send: the
   * insert may have found a document written by an earlier copy of the message and become an
   * update (another `rev`). After any other outcome the delivery as sent is known whole (but for
   * an at_most_once one).
   */
  recorded(o: DeliveryOutcome): void {
    const key = keyOf({ projectId: o.delivery.project_id, id: o.delivery._id });
    // Deleted first: a value too large for the cache is not stored, and the old one must not stay.
    this.remembered.delete(key);
    const state = retryStateAfter(o);
    if (!state) return;
    const { rev: _rev, ...standing } = state;
    const { attempts: _attempts, ...fields } = o.delivery;
    // at_most_once: its `Processing` marker is a write of the document this state does not count.
    const delivery =
      o.firstRecord || o.delivery.delivery_mode === 'at_most_once'
        ? undefined
        : ({ ...fields, ...standing, status: 'Retry', rev: state.rev } as DeliveryDoc);
    this.remembered.set(key, { state, delivery });
  }

  /** Where the delivery stands, to be checked against its document (libs/store withRetryState). */
  readonly known = (ref: ScopedId): RetryState | undefined => this.remembered.get(keyOf(ref))?.state;

  /** The delivery to send without reading it (without its attempts, as the sender reads it). */
  delivery(ref: ScopedId, now = Date.now()): DeliveryDoc | undefined {
    const delivery = this.remembered.get(keyOf(ref))?.delivery;
    return delivery && now - delivery.created_at.getTime() < UNREAD_FOR_MS ? delivery : undefined;
  }

  /** One delivery (another writer is sending it), or every one (this process's partitions move). */
  forget(ref?: ScopedId): void {
    if (ref) this.remembered.delete(keyOf(ref));
    else this.remembered.clear();
  }
}

const keyOf = (ref: ScopedId) => `${ref.projectId}/${ref.id}`;
