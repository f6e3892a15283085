import type { DeliveryMessage } from '@hookrail/bus';
import { timeOfId } from '@hookrail/domain';
import type { DeliveryDoc } from '@hookrail/store';
import { FINAL_STATUSES } from '../sender/load-delivery';
import { lockKey, newKey, type Admission, type KeyState, type ToHold, type Waiter } from './key-state';
import type { KnownKeys } from './known-keys';
import type { OrderingWrites } from './ordering-writes';

/** How far the intakes' clocks may be ahead of this process's (events accepted later are new). */
const CLOCK_SKEW_MS = 10_000;

/** An admission, or a wait in memory for the head's attempt that ends in one. */
export type Decision = Admission | { kind: 'wait'; until: Promise<Admission> };

/**
 * Whether an ordered delivery goes now, decided in its key's lock: it is sent when its key has no
 * head (it becomes the head) or when it is the head; one that comes while the head's attempt is
 * on its way waits in memory for it; otherwise it is held, written down behind the head.
 */
export class Admissions {
  constructor(
    private readonly keys: KnownKeys,
    private readonly writes: OrderingWrites,
    private readonly now: () => number,
  ) {}

  async decide(m: DeliveryMessage, delivery: DeliveryDoc, key: string, epoch: number): Promise<Decision> {
    await this.keys.load(delivery.project_id, delivery.endpoint_id);
    this.keys.fence(epoch);
    let state = this.keys.get(lockKey(delivery.endpoint_id, key));
    // Only a release sends `released`, after writing the delivery down as its key's head: when
    // this process thinks otherwise, another one (the previous owner finishing its work after
    // this process read the keys) moved the key on, and the key as stored decides.
    if (m.reason === 'released' && state?.head !== delivery._id) {
      ({ state } = await this.keys.reread(delivery.project_id, delivery.endpoint_id, key, state));
      this.keys.fence(epoch);
    }
    // The head is sent (again: a retry, or its release finished by the sweep after a crash),
    // unless its outcome is already final (the sweep then releases the next).
    if (state?.head === delivery._id) {
      if (m.reason !== 'released' || !(await this.ended(m, delivery))) return this.keys.sendHead(state);
      state.adopted = true; // its end was recorded before a crash: the sweep releases the next
      return { kind: 'done' };
    }
    // A copy of a delivery that already ended (a first send redelivered after a crash, its key
    // since moved on) is neither sent nor held again: it would arrive after later ones.
    if (await this.ended(m, delivery)) return { kind: 'done' };
    if (!state) {
      const created = newKey(delivery, key, new Date(this.now()));
      this.keys.set(created);
      return this.keys.sendHead(created);
    }
    return this.behindHead(state, m, delivery, epoch);
  }

  /** A delivery that comes behind its key's head: it waits in memory for the head's attempt, or is held. */
  private async behindHead(
    state: KeyState,
    m: DeliveryMessage,
    delivery: DeliveryDoc,
    epoch: number,
  ): Promise<Decision> {
    if (state.queue.some((h) => h.id === delivery._id)) return { kind: 'held', head: state.head };
    // The head's attempt is on its way and usually succeeds in milliseconds: wait for it in
    // memory rather than write this delivery down.
    if (this.keys.sendingHeads.get(state.head)?.epoch === this.keys.epoch && state.queue.length === 0) {
      const until = new Promise<Admission>((resolve, reject) =>
        state.waiting.push({ id: delivery._id, message: m, resolve, reject }),
      );
      return { kind: 'wait', until };
    }
    // What waits in memory for the head's attempt came first (partition order) and is held
    // first: the attempt ended, and its send may not have said so yet (`sent`).
    const waiting = state.waiting.splice(0);
    await this.holdInOrder(state, [...waiting, { id: delivery._id, message: m }], waiting, epoch);
    return { kind: 'held', head: state.head };
  }

  /** The head's attempt did not end the key's wait: what waited in memory behind it is held. */
  async holdWaiting(state: KeyState): Promise<void> {
    if (state.waiting.length === 0) return;
    const waiting = state.waiting.splice(0);
    // a failure is the waiters' (each is handled again by its consumer), not the caller's
    await this.holdInOrder(state, waiting, waiting).catch(() => undefined);
  }

  /**
   * Writes `deliveries` down behind the key's head in the order given, the key's document first;
   * the `waiters` among them learn they are held, or are handed back to their consumers.
   */
  private async holdInOrder(
    state: KeyState,
    deliveries: ToHold[],
    waiters: Waiter[],
    epoch = this.keys.epoch,
  ): Promise<void> {
    try {
      if (!state.durable) await this.writes.saveKey(state);
      this.keys.fence(epoch);
      await this.writes.hold(state, deliveries);
    } catch (err) {
      for (const w of waiters) w.reject(err);
      throw err;
    }
    for (const w of waiters) w.resolve({ kind: 'held', head: state.head });
  }

  /**
   * Whether the delivery's outcome is recorded as final (a message read from its document was
   * checked already). A first send of an event accepted after this process took the endpoint over
   * (with a margin for the intake's clock) was never handled anywhere else, so it is not read:
   * only copies a crashed or previous owner may have sent cost a read. The acceptance time is the
   * delivery id's (deliveryId), not the routing time: an event routed again after a rebalance of
   * the events topic is routed after the takeover, yet its delivery may have been sent before it.
   */
  private async ended(m: DeliveryMessage, delivery: DeliveryDoc): Promise<boolean> {
    if (!m.first_send) return FINAL_STATUSES.has(delivery.status);
    const takenOver = this.keys.takenOverAt(delivery.endpoint_id);
    if ((timeOfId(delivery._id) ?? 0) > takenOver + CLOCK_SKEW_MS) return false;
    const stored = await this.writes.findDelivery(delivery.project_id, delivery._id);
    return stored !== null && FINAL_STATUSES.has(stored.status);
  }
}
