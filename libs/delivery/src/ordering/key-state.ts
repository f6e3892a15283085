import type { DeliveryMessage } from '@hookrail/bus';
import type { ProjectId } from '@hookrail/domain';
import type { DeliveryDoc, HeldDeliveryDoc, OrderingKeyDoc } from '@hookrail/store';

/** What the sender does with an ordered delivery now. */
export type Admission = { kind: 'send' } | { kind: 'held'; head: string } | { kind: 'done' };

/** A key this process has seen not yet free: its head, and whether that is written down. */
export interface KeyState {
  projectId: ProjectId;
  endpointId: string;
  key: string;
  head: string;
  since: Date;
  headStatus: string | null;
  /** The key's document exists: something was held behind the head, or the head did not end at once. */
  durable: boolean;
  /** The highest seq held under this key. */
  lastSeq: number;
  /** What waits behind the head, lowest seq first (their documents are the durable copy). */
  queue: { id: string; seq: number; messageJson: string }[];
  /** The head was released from `held_deliveries` and its document is still there. */
  headHeld: boolean;
  /**
   * Read from the database, not made by this process: what happened to its head is unknown until
   * the sweep looked (a crash may have cut its release short or missed its end).
   */
  adopted: boolean;
  /**
   * Deliveries that came while the head was being sent, in arrival order: they wait in memory
   * for that attempt's outcome (their offsets stay uncommitted, so a crash delivers them again).
   * The head's success lets the first go; anything else writes them to `held_deliveries`.
   * Only while `queue` is empty: what comes behind held deliveries is held too.
   */
  waiting: Waiter[];
}

export interface Waiter {
  id: string;
  message: DeliveryMessage;
  resolve: (admission: Admission) => void;
  reject: (err: unknown) => void;
}

/** A delivery to write down behind its key's head. */
export interface ToHold {
  id: string;
  message: DeliveryMessage;
}

/** Thrown to the consumer for work of a generation that ended: it is not committed, so it comes again. */
export const MOVED = "the endpoint's partition was reassigned; its next owner decides";

/** The ordering key a delivery carries (set by the router from its subscription), or null. */
export function orderingKeyOfDelivery(delivery: Pick<DeliveryDoc, 'metadata'>): string | null {
  const key = delivery.metadata?.ordering_key;
  return typeof key === 'string' ? key : null;
}

/** A key made here: the delivery is its head, nothing is written down yet. */
export function newKey(delivery: DeliveryDoc, key: string, since: Date): KeyState {
  return {
    projectId: delivery.project_id,
    endpointId: delivery.endpoint_id,
    key,
    head: delivery._id,
    since,
    headStatus: null,
    durable: false,
    lastSeq: 0,
    queue: [],
    headHeld: false,
    adopted: false,
    waiting: [],
  };
}

/** A key as stored, taken over from whoever wrote it: what happened to its head is looked at by the sweep. */
export function adopted(doc: OrderingKeyDoc, held: readonly HeldDeliveryDoc[]): KeyState {
  const mine = [...held].sort((a, b) => a.seq - b.seq);
  return {
    projectId: doc.project_id,
    endpointId: doc.endpoint_id,
    key: doc.key,
    head: doc.head,
    since: doc.blocked_since,
    headStatus: doc.head_status,
    durable: true,
    lastSeq: mine.reduce((max, h) => Math.max(max, h.seq), 0),
    queue: mine
      .filter((h) => h._id !== doc.head)
      .map((h) => ({ id: h._id, seq: h.seq, messageJson: h.message_json })),
    headHeld: mine.some((h) => h._id === doc.head),
    adopted: true,
    waiting: [],
  };
}

export function releasedMessage(json: string): DeliveryMessage {
  return { ...(JSON.parse(json) as DeliveryMessage), reason: 'released' };
}

/** A key's id in this process: its lock and its state. */
export function lockKey(endpointId: string, key: string): string {
  return `${endpointId}/${key}`;
}
