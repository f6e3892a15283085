import type { DeliveryMessage, Publisher } from '@hookrail/bus';
import { Coalescer, timeOfId, type ProjectId } from '@hookrail/domain';
import type {
  ConfigCache,
  DeliveryDoc,
  DeliveryStatus,
  HeldDeliveryDoc,
  KeyStateWrite,
  OrderingKeyDoc,
  ScopedId,
  Store,
} from '@hookrail/store';
import type { Logger, Metrics } from '@hookrail/telemetry';
import { KeyLocks, type Place } from './key-locks';
import { headEnd } from './unblocks';
import { FINAL_STATUSES } from '../sender/load-delivery';

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

/** What the sender does with an ordered delivery now. */
export type Admission = { kind: 'send' } | { kind: 'held'; head: string } | { kind: 'done' };

/** A key this process has seen not yet free: its head, and whether that is written down. */
interface KeyState {
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

interface Waiter {
  id: string;
  message: DeliveryMessage;
  resolve: (admission: Admission) => void;
  reject: (err: unknown) => void;
}

/** How far the intakes' clocks may be ahead of this process's (events accepted later are new). */
const CLOCK_SKEW_MS = 10_000;
const SKIPPED_REASON = 'skipped by an operator to unblock its ordering key';
/** Thrown to the consumer for work of a generation that ended: it is not committed, so it comes again. */
const MOVED = "the endpoint's partition was reassigned; its next owner decides";

/** The ordering key a delivery carries (set by the router from its subscription), or null. */
export function orderingKeyOfDelivery(delivery: Pick<DeliveryDoc, 'metadata'>): string | null {
  const key = delivery.metadata?.ordering_key;
  return typeof key === 'string' ? key : null;
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
 */
export class DeliveryOrdering {
  private readonly locks = new KeyLocks();
  /**
   * Counts rebalances: work that started under an earlier one writes nothing more (the new owner
   * may have read the keys already, and its sweep finishes what that work left).
   */
  private epoch = 0;
  private states = new Map<string, KeyState>();
  private loaded = new Map<string, Promise<void>>();
  /** When this process read each endpoint's keys (it has owned the endpoint since). */
  private loadedAt = new Map<string, number>();
  private readonly now: () => number;
  /** Sends a released delivery in this process (the sender, once it is made). */
  private sendHere?: (m: DeliveryMessage) => Promise<void>;
  /** Released deliveries being sent here: the sweep leaves them to that send. */
  private readonly releasing = new Set<string>();
  /**
   * Heads this process is sending now (attempts whose outcome is not recorded yet): their key's
   * lock id, and the epoch that admitted them. Each entry ends with its send (`sent`).
   */
  private readonly sendingHeads = new Map<string, { lockId: string; epoch: number }>();
  private readonly held;
  private readonly released;
  /**
   * Every database call of the ordering, group-committed: a thousand keys moving at once share
   * round trips. Each caller still waits for its own write, so the order of one key's writes holds.
   */
  private readonly db: {
    hold: Coalescer<HeldDeliveryDoc>;
    released: Coalescer<ScopedId>;
    saveKey: Coalescer<KeyStateWrite>;
    deleteKey: Coalescer<{ projectId: ProjectId; endpointId: string; key: string }>;
    findDelivery: Coalescer<ScopedId, DeliveryDoc | null>;
  };

  constructor(private readonly deps: OrderingDeps) {
    this.now = deps.now ?? Date.now;
    const { ordering, deliveries } = deps.store;
    this.db = {
      hold: new Coalescer((docs) => ordering.hold(docs)),
      released: new Coalescer((refs) => ordering.released(refs)),
      saveKey: new Coalescer((states) => ordering.saveKeys(states)),
      deleteKey: new Coalescer((refs) => ordering.deleteKeys(refs)),
      findDelivery: new Coalescer((refs) => deliveries.findManyForSend(refs)),
    };
    this.held = deps.metrics.counter(
      'hookrail_ordering_held_total',
      'Ordered deliveries held behind an earlier delivery of their key',
    );
    this.released = deps.metrics.counter(
      'hookrail_ordering_released_total',
      'Held deliveries released, by why (the head ended, an operator skipped it)',
      ['why'],
    );
    deps.metrics.gauge(
      'hookrail_ordering_blocked_keys',
      'Ordering keys this process holds deliveries behind, or whose head waits for a retry',
      [],
      (g) => g.set([...this.states.values()].filter((s) => s.durable).length),
    );
  }

  /** The sender hands over its send: a released delivery of an endpoint owned here is sent at once. */
  sendWith(send: (m: DeliveryMessage) => Promise<void>): void {
    this.sendHere = send;
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
    const epoch = this.epoch;
    let decided: Admission | { kind: 'wait'; until: Promise<Admission> };
    try {
      await mine.ready;
      decided = await this.decide(m, delivery, key, epoch);
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
    const sending = this.sendingHeads.get(deliveryId);
    if (sending === undefined) return;
    this.sendingHeads.delete(deliveryId);
    if (sending.epoch !== this.epoch) return; // what waited on it was handed back at the rebalance
    await this.locks.run(sending.lockId, async () => {
      const state = this.states.get(sending.lockId);
      if (!state || state.head !== deliveryId) return;
      await this.holdWaiting(state);
    });
  }

  /** Told of every recorded outcome of a delivery (after it is durable). */
  async recorded(delivery: DeliveryDoc, status: DeliveryStatus): Promise<void> {
    const key = orderingKeyOfDelivery(delivery);
    if (key === null) return;
    // An attempt admitted before a rebalance: its outcome is recorded, and the key's owner now
    // (this process again, or another, which may have read the key already) releases the next
    // from it in its sweep.
    const epoch = this.sendingHeads.get(delivery._id)?.epoch ?? this.epoch;
    await this.locks.run(lockKey(delivery.endpoint_id, key), async () => {
      if (epoch !== this.epoch) return;
      await this.load(delivery.project_id, delivery.endpoint_id);
      if (epoch !== this.epoch) return;
      const state = this.states.get(lockKey(delivery.endpoint_id, key));
      if (!state || state.head !== delivery._id) return;
      const subscription = await this.deps.config.subscription(delivery.project_id, delivery.subscription_id);
      const end = headEnd(status, subscription);
      if (end === 'unblocks') return this.releaseNext(state, 'head_ended');
      state.headStatus = end === 'blocks' ? status : null;
      await this.persist(state);
      await this.holdWaiting(state);
    });
  }

  /** A rebalance: what this process knew of its endpoints' keys is read again when next needed. */
  reset(): void {
    this.epoch++;
    // Their messages are delivered again to the partitions' new owners (nothing was committed).
    for (const state of this.states.values())
      for (const w of state.waiting.splice(0)) w.reject(new Error(MOVED));
    this.states = new Map();
    this.loaded = new Map();
    this.loadedAt = new Map();
  }

  /**
   * Finishes what a crash or another process left: for every blocked key of an endpoint this
   * process owns, an operator's skip is carried out, a release cut short is published, and a key
   * whose head ended (and unblocks it) is released.
   */
  async sweep(): Promise<void> {
    const epoch = this.epoch;
    const blocked = (await this.deps.store.ordering.allBlocked(this.deps.deployment)).filter((d) =>
      this.deps.owns(d.endpoint_id),
    );
    for (const doc of blocked) {
      if (epoch !== this.epoch) return; // a rebalance: the next assignment sweeps again
      await this.locks.run(lockKey(doc.endpoint_id, doc.key), () => this.settle(doc));
    }
  }

  private async decide(
    m: DeliveryMessage,
    delivery: DeliveryDoc,
    key: string,
    epoch: number,
  ): Promise<Admission | { kind: 'wait'; until: Promise<Admission> }> {
    await this.load(delivery.project_id, delivery.endpoint_id);
    this.fence(epoch);
    const id = lockKey(delivery.endpoint_id, key);
    let state = this.states.get(id);
    // Only a release sends `released`, after writing the delivery down as its key's head: when
    // this process thinks otherwise, another one (the previous owner finishing its work after
    // this process read the keys) moved the key on, and the key as stored decides.
    if (m.reason === 'released' && state?.head !== delivery._id) {
      ({ state } = await this.reread(delivery.project_id, delivery.endpoint_id, key, state));
      this.fence(epoch);
    }
    // The head is sent (again: a retry, or its release finished by the sweep after a crash),
    // unless its outcome is already final (the sweep then releases the next).
    if (state?.head === delivery._id) {
      if (m.reason !== 'released' || !(await this.ended(m, delivery))) return this.sendHead(state);
      state.adopted = true; // its end was recorded before a crash: the sweep releases the next
      return { kind: 'done' };
    }
    // A copy of a delivery that already ended (a first send redelivered after a crash, its key
    // since moved on) is neither sent nor held again: it would arrive after later ones.
    if (await this.ended(m, delivery)) return { kind: 'done' };
    if (!state) {
      const created: KeyState = {
        projectId: delivery.project_id,
        endpointId: delivery.endpoint_id,
        key,
        head: delivery._id,
        since: new Date(this.now()),
        headStatus: null,
        durable: false,
        lastSeq: 0,
        queue: [],
        headHeld: false,
        adopted: false,
        waiting: [],
      };
      this.states.set(id, created);
      return this.sendHead(created);
    }
    if (state.queue.some((h) => h.id === delivery._id)) return { kind: 'held', head: state.head };
    // The head's attempt is on its way and usually succeeds in milliseconds: wait for it in
    // memory rather than write this delivery down.
    if (this.sendingHeads.get(state.head)?.epoch === this.epoch && state.queue.length === 0) {
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

  /** Work of a generation that ended stops before it writes (see `epoch`). */
  private fence(epoch: number): void {
    if (epoch !== this.epoch) throw new Error(MOVED);
  }

  private sendHead(state: KeyState): Admission {
    this.sendingHeads.set(state.head, { lockId: lockKey(state.endpointId, state.key), epoch: this.epoch });
    return { kind: 'send' };
  }

  /** Writes deliveries down behind the key's head, in the order given, and queues them. */
  private async hold(state: KeyState, deliveries: { id: string; message: DeliveryMessage }[]): Promise<void> {
    const created = new Date(this.now());
    const docs = deliveries.map((d) => ({
      _id: d.id,
      project_id: state.projectId,
      endpoint_id: state.endpointId,
      key: state.key,
      seq: ++state.lastSeq,
      message_json: JSON.stringify(d.message),
      created_at: created,
    }));
    await Promise.all(docs.map((doc) => this.db.hold.submit(doc)));
    for (const doc of docs) state.queue.push({ id: doc._id, seq: doc.seq, messageJson: doc.message_json });
    this.held.inc(docs.length);
  }

  /** The head's attempt did not end the key's wait: what waited in memory behind it is held. */
  private async holdWaiting(state: KeyState): Promise<void> {
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
    deliveries: { id: string; message: DeliveryMessage }[],
    waiters: Waiter[],
    epoch = this.epoch,
  ): Promise<void> {
    try {
      if (!state.durable) await this.persist(state);
      this.fence(epoch);
      await this.hold(state, deliveries);
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
    const takenOver = this.loadedAt.get(delivery.endpoint_id) ?? Infinity;
    if ((timeOfId(delivery._id) ?? 0) > takenOver + CLOCK_SKEW_MS) return false;
    const stored = await this.db.findDelivery.submit({ projectId: delivery.project_id, id: delivery._id });
    return stored !== null && FINAL_STATUSES.has(stored.status);
  }

  /** The endpoint's blocked keys, read once per assignment (this process is their only writer). */
  private load(projectId: ProjectId, endpointId: string): Promise<void> {
    let loading = this.loaded.get(endpointId);
    if (!loading) {
      loading = this.read(projectId, endpointId).catch((err: unknown) => {
        this.loaded.delete(endpointId);
        throw err;
      });
      this.loaded.set(endpointId, loading);
    }
    return loading;
  }

  private async read(projectId: ProjectId, endpointId: string): Promise<void> {
    this.loadedAt.set(endpointId, this.now());
    const [keys, held] = await Promise.all([
      this.deps.store.ordering.ofEndpoint(projectId, endpointId),
      this.deps.store.ordering.heldOfEndpoint(projectId, endpointId),
    ]);
    const byKey = new Map<string, typeof held>();
    for (const h of held) byKey.set(h.key, [...(byKey.get(h.key) ?? []), h]);
    for (const doc of keys) {
      const id = lockKey(endpointId, doc.key);
      if (!this.states.has(id)) this.states.set(id, adopted(doc, byKey.get(doc.key) ?? []));
    }
  }

  /**
   * One key read again, when what is stored shows this process's view is stale (see `decide` and
   * `settle`). The view stays when the stored head is the one it knows; otherwise the stored key
   * replaces it (what waited in memory on it is handled again by its consumer).
   */
  private async reread(
    projectId: ProjectId,
    endpointId: string,
    key: string,
    known: KeyState | undefined,
  ): Promise<{ state?: KeyState; doc: OrderingKeyDoc | null }> {
    const [doc, held] = await Promise.all([
      this.deps.store.ordering.findKey(projectId, endpointId, key),
      this.deps.store.ordering.heldOfEndpoint(projectId, endpointId, key),
    ]);
    // a key this process follows in memory only has no document
    const storedHead = doc?.head ?? (known && !known.durable ? known.head : undefined);
    if (known && storedHead === known.head) return { state: known, doc };
    if (known) for (const w of known.waiting.splice(0)) w.reject(new Error('ordering key read again'));
    const id = lockKey(endpointId, key);
    if (!doc) {
      this.states.delete(id);
      return { doc };
    }
    this.deps.logger.info(
      { project_id: projectId, endpoint_id: endpointId, key, head: doc.head, was: known?.head ?? null },
      'ordering key moved on elsewhere (a hand-off): read again',
    );
    const state = adopted(doc, held);
    this.states.set(id, state);
    return { state, doc };
  }

  private async persist(state: KeyState, newHead = false): Promise<void> {
    await this.db.saveKey.submit({
      project_id: state.projectId,
      endpoint_id: state.endpointId,
      deployment: this.deps.deployment,
      key: state.key,
      head: state.head,
      blocked_since: state.since,
      head_status: state.headStatus,
      newHead,
    });
    state.durable = true;
  }

  /**
   * The head ended: the next held delivery becomes the head (written before its message goes out,
   * so a crash in between is finished by `sweep`), or the key is free.
   */
  private async releaseNext(state: KeyState, why: 'head_ended' | 'skipped'): Promise<void> {
    const id = lockKey(state.endpointId, state.key);
    const next = state.queue.shift();
    state.adopted = false; // what follows is this process's own doing
    // The ended head's own held document (a released head keeps it until its send is handled)
    // goes first: it must never be released again.
    if (state.headHeld) await this.db.released.submit({ projectId: state.projectId, id: state.head });
    state.headHeld = false;
    const waiter = state.waiting.shift(); // only while nothing is held (queue empty)
    if (waiter) {
      // The next delivery is one waiting in memory: it becomes the head and its own send goes on;
      // nothing is held any more, so the key's document goes.
      if (state.durable) await this.deleteKeyDoc(state);
      state.durable = false;
      state.head = waiter.id;
      state.since = new Date(this.now());
      state.headStatus = null;
      waiter.resolve(this.sendHead(state));
      return;
    }
    if (!next) {
      if (state.durable) await this.deleteKeyDoc(state);
      this.states.delete(id);
      return;
    }
    state.head = next.id;
    state.headHeld = true;
    state.since = new Date(this.now());
    state.headStatus = null;
    await this.persist(state, true);
    this.released.inc({ why });
    const message = releasedMessage(next.messageJson);
    if (!this.sendHere || !this.deps.owns(state.endpointId)) {
      await this.publishHeld(state.projectId, next.id, message);
      state.headHeld = false;
      return;
    }
    // Sent here, not awaited: the send takes the key's lock after this release. Its held
    // document goes once the send is recorded; a crash before that leaves it to the sweep.
    this.releasing.add(next.id);
    void this.sendHere(message)
      .then(() => this.handedOver(state, next.id))
      .catch((err: unknown) =>
        this.deps.logger.warn(
          { err, project_id: state.projectId, delivery_id: next.id },
          'released delivery not sent here; the ordering sweep publishes it',
        ),
      )
      .finally(() => this.releasing.delete(next.id));
  }

  private deleteKeyDoc(state: KeyState): Promise<void> {
    return this.db.deleteKey.submit({
      projectId: state.projectId,
      endpointId: state.endpointId,
      key: state.key,
    });
  }

  /** A released head's send was handled here: its held document is no longer needed (unless it went already). */
  private async handedOver(state: KeyState, deliveryId: string): Promise<void> {
    if (state.head !== deliveryId || !state.headHeld) return;
    await this.db.released.submit({ projectId: state.projectId, id: deliveryId });
    state.headHeld = false;
  }

  private async publishHeld(
    projectId: ProjectId,
    deliveryId: string,
    message: DeliveryMessage,
  ): Promise<void> {
    await this.deps.publisher.publish('deliveries', [message]);
    await this.db.released.submit({ projectId, id: deliveryId });
  }

  /** One blocked key as the sweep finds it. */
  private async settle(listed: OrderingKeyDoc): Promise<void> {
    await this.load(listed.project_id, listed.endpoint_id);
    let doc: OrderingKeyDoc | null = listed;
    let state = this.states.get(lockKey(doc.endpoint_id, doc.key));
    // A key read from the database and not driven since: the list is newer than this process's view
    // when the previous owner moved the key on after it was read here, and the key as stored decides.
    if (state?.adopted && state.head !== doc.head) {
      ({ state, doc } = await this.reread(doc.project_id, doc.endpoint_id, doc.key, state));
    }
    if (!state || !doc || state.head !== doc.head) return;
    // A key this process has followed since it was made needs nothing unless an operator asked.
    if (!state.adopted && !doc.skip_requested_at) return;
    if (this.releasing.has(doc.head)) return;
    const pending = state.headHeld ? await this.deps.store.ordering.findHeld(doc.project_id, doc.head) : null;
    if (pending) {
      await this.publishHeld(doc.project_id, pending._id, releasedMessage(pending.message_json));
      state.headHeld = false;
      return;
    }
    const head = await this.deps.store.deliveries.findForSend(doc.project_id, doc.head);
    if (doc.skip_requested_at) {
      if (head && !FINAL_STATUSES.has(head.status)) await this.discard(head);
      this.deps.logger.info(
        { project_id: doc.project_id, endpoint_id: doc.endpoint_id, key: doc.key, delivery_id: doc.head },
        'ordering key unblocked by an operator: head skipped',
      );
      return this.releaseNext(state, 'skipped');
    }
    if (!head || !FINAL_STATUSES.has(head.status)) return; // still on its way: looked at again
    const subscription = await this.deps.config.subscription(doc.project_id, head.subscription_id);
    if (headEnd(head.status, subscription) === 'unblocks') return this.releaseNext(state, 'head_ended');
    // ended for good without unblocking: the key waits for an operator, nothing more to look at
    state.adopted = false;
    state.headStatus = head.status;
    await this.persist(state);
  }

  private discard(head: DeliveryDoc): Promise<void> {
    return this.deps.store.deliveries.recordOutcomes([
      {
        delivery: head,
        status: 'Discarded',
        reason: SKIPPED_REASON,
        nextAttemptAt: null,
        attempt: null,
        retrySpent: false,
        firstRecord: false,
      },
    ]);
  }
}

/** A key as stored, taken over from whoever wrote it: what happened to its head is looked at by the sweep. */
function adopted(doc: OrderingKeyDoc, held: readonly HeldDeliveryDoc[]): KeyState {
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

function releasedMessage(json: string): DeliveryMessage {
  return { ...(JSON.parse(json) as DeliveryMessage), reason: 'released' };
}

function lockKey(endpointId: string, key: string): string {
  return `${endpointId}/${key}`;
}
