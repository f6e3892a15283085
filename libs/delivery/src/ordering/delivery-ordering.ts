import type { DeliveryMessage, Publisher } from '@hookrail/bus';
import type { ConfigCache, DeliveryDoc, DeliveryStatus, Store } from '@hookrail/store';
import type { Logger, Metrics } from '@hookrail/telemetry';
import { Admissions, type Decision } from './admission';
import { KeyLocks, type Place } from './key-locks';
import { KeyRelease } from './key-release';
import { lockKey, orderingKeyOfDelivery, type Admission } from './key-state';
import { KnownKeys } from './known-keys';
import { OrderingWrites } from './ordering-writes';
import { headEnd } from './unblocks';

export interface OrderingDeps {
  store: Store;
  publisher: Publisher;
  config: ConfigCache;
  logger: Logger;
  metrics: Metrics;
  /** The deployment's Kafka topic prefix: its dispatchers sweep only their own keys. */
  deployment: string;
  /** Whether this process owns the endpoint's partition of the deliveries topic now. */
  owns: (endpointId: string) => boolean;
  now?: () => number;
}

/**
 * Ordered delivery in the sender (docs/ordered-delivery.md). One dispatcher owns an endpoint's
 * partition of the deliveries topic, so it alone decides for the endpoint's keys: a delivery is
 * sent when its key has no head (it becomes the head) or when it is the head. One that comes
 * while the head's attempt is on its way waits in memory for it (uncommitted, so a crash delivers
 * it again); otherwise, or when that attempt does not succeed, it is held, written to
 * `held_deliveries` before its offset is committed. When the head's outcome is recorded as an end
 * that unblocks the key, the next delivery becomes the head (a held one written first, and sent
 * again with reason `released`). Keys whose heads succeed cost no write.
 *
 * What is written survives a SIGKILL: `sweep` (run at start, after each assignment and every few
 * seconds) finishes a release that was cut short, releases a key whose head ended without this
 * process seeing it, and carries out an operator's skip.
 *
 * Its parts: what this process knows of the keys (KnownKeys), what it writes down
 * (OrderingWrites), whether a delivery goes now (Admissions), and a key moving on (KeyRelease);
 * each key's work runs in its key's lock (KeyLocks).
 */
export class DeliveryOrdering {
  private readonly locks = new KeyLocks();
  private readonly keys: KnownKeys;
  private readonly admissions: Admissions;
  private readonly release: KeyRelease;
  private readonly writes: OrderingWrites;

  constructor(private readonly deps: OrderingDeps) {
    const now = deps.now ?? Date.now;
    this.keys = new KnownKeys({ ...deps, now });
    this.writes = new OrderingWrites({ ...deps, now });
    this.admissions = new Admissions(this.keys, this.writes, now);
    this.release = new KeyRelease(this.keys, this.writes, { ...deps, now });
    deps.metrics.gauge(
      'hookrail_ordering_blocked_keys',
      'Ordering keys this process holds deliveries behind, or whose head waits for a retry',
      [],
      (g) => g.set(this.keys.durableCount()),
    );
  }

  /** The sender hands over its send: a released delivery of an endpoint owned here is sent at once. */
  sendWith(send: (m: DeliveryMessage) => Promise<void>): void {
    this.release.sendHere = send;
  }

  /**
   * The message's place in its key's queue, taken when the message starts (partition order).
   * Only first sends take one: a retry or a released delivery is the head already.
   */
  place(m: DeliveryMessage): Place | undefined {
    const key = m.first_send?.ordering_key;
    if (key === undefined || m.reason === 'resend') return undefined;
    return this.locks.take(lockKey(m.endpoint_id, key));
  }

  /** Whether the delivery may be sent now; a manual resend always may (it does not take the key). */
  async admit(m: DeliveryMessage, delivery: DeliveryDoc, place?: Place): Promise<Admission> {
    const key = orderingKeyOfDelivery(delivery);
    if (key === null || m.reason === 'resend') return { kind: 'send' };
    const mine = place ?? this.locks.take(lockKey(delivery.endpoint_id, key));
    const epoch = this.keys.epoch;
    let decided: Decision;
    try {
      await mine.ready;
      decided = await this.admissions.decide(m, delivery, key, epoch);
    } finally {
      mine.release();
    }
    // waited for outside the key's lock: the head's outcome takes it
    return decided.kind === 'wait' ? decided.until : decided;
  }

  /**
   * The send of a message ended (whatever it did): if it was a head's attempt and the key did not
   * move on, what waits in memory behind it is written down as held.
   */
  async sent(deliveryId: string): Promise<void> {
    const sending = this.keys.sendingHeads.get(deliveryId);
    if (sending === undefined) return;
    this.keys.sendingHeads.delete(deliveryId);
    if (sending.epoch !== this.keys.epoch) return; // what waited on it was handed back at the rebalance
    await this.locks.run(sending.lockId, async () => {
      const state = this.keys.get(sending.lockId);
      if (!state || state.head !== deliveryId) return;
      await this.admissions.holdWaiting(state);
    });
  }

  /** Told of every recorded outcome of a delivery (after it is durable). */
  async recorded(delivery: DeliveryDoc, status: DeliveryStatus): Promise<void> {
    const key = orderingKeyOfDelivery(delivery);
    if (key === null) return;
    // An attempt admitted before a rebalance: its outcome is recorded, and the key's owner now
    // (this process again, or another, which may have read the key already) releases the next
    // from it in its sweep.
    const epoch = this.keys.sendingHeads.get(delivery._id)?.epoch ?? this.keys.epoch;
    await this.locks.run(lockKey(delivery.endpoint_id, key), async () => {
      if (epoch !== this.keys.epoch) return;
      await this.keys.load(delivery.project_id, delivery.endpoint_id);
      if (epoch !== this.keys.epoch) return;
      const state = this.keys.get(lockKey(delivery.endpoint_id, key));
      if (!state || state.head !== delivery._id) return;
      const subscription = await this.deps.config.subscription(delivery.project_id, delivery.subscription_id);
      const end = headEnd(status, subscription);
      if (end === 'unblocks') return this.release.releaseNext(state, 'head_ended');
      state.headStatus = end === 'blocks' ? status : null;
      await this.writes.saveKey(state);
      await this.admissions.holdWaiting(state);
    });
  }

  /** A rebalance: what this process knew of its endpoints' keys is read again when next needed. */
  reset(): void {
    this.keys.reset();
  }

  /**
   * Finishes what a crash or another process left: for every blocked key of an endpoint this
   * process owns, an operator's skip is carried out, a release cut short is published, and a key
   * whose head ended (and unblocks it) is released.
   */
  async sweep(): Promise<void> {
    const epoch = this.keys.epoch;
    const blocked = (await this.deps.store.ordering.allBlocked(this.deps.deployment)).filter((d) =>
      this.deps.owns(d.endpoint_id),
    );
    for (const doc of blocked) {
      if (epoch !== this.keys.epoch) return; // a rebalance: the next assignment sweeps again
      await this.locks.run(lockKey(doc.endpoint_id, doc.key), () => this.release.settle(doc));
    }
  }
}
