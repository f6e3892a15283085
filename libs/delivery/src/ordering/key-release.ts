import type { DeliveryMessage } from '@hookrail/bus';
import type { ConfigCache, OrderingKeyDoc, Store } from '@hookrail/store';
import type { Logger, Metrics } from '@hookrail/telemetry';
import { FINAL_STATUSES } from '../sender/load-delivery';
import { lockKey, releasedMessage, type KeyState } from './key-state';
import type { KnownKeys } from './known-keys';
import type { OrderingWrites } from './ordering-writes';
import { headEnd } from './unblocks';

export interface KeyReleaseDeps {
  store: Store;
  config: ConfigCache;
  logger: Logger;
  metrics: Metrics;
  /** Whether this process owns the endpoint's partition of the deliveries topic now. */
  owns: (endpointId: string) => boolean;
  now: () => number;
}

/**
 * A key moving on: when its head ended, the next delivery becomes the head (a held one written
 * first, and sent again with reason `released`), or the key is free; and the sweep's look at one
 * blocked key, which finishes what a crash or another process left.
 */
export class KeyRelease {
  /** Sends a released delivery in this process (the sender, once it is made). */
  sendHere?: (m: DeliveryMessage) => Promise<void>;
  /** Released deliveries being sent here: the sweep leaves them to that send. */
  private readonly releasing = new Set<string>();
  private readonly released;

  constructor(
    private readonly keys: KnownKeys,
    private readonly writes: OrderingWrites,
    private readonly deps: KeyReleaseDeps,
  ) {
    this.released = deps.metrics.counter(
      'hookrail_ordering_released_total',
      'Held deliveries released, by why (the head ended, an operator skipped it)',
      ['why'],
    );
  }

  /**
   * The head ended: the next held delivery becomes the head (written before its message goes out,
   * so a crash in between is finished by `sweep`), or the key is free.
   */
  async releaseNext(state: KeyState, why: 'head_ended' | 'skipped'): Promise<void> {
    const next = state.queue.shift();
    state.adopted = false; // what follows is this process's own doing
    // The ended head's own held document (a released head keeps it until its send is handled)
    // goes first: it must never be released again.
    if (state.headHeld) await this.writes.released(state.projectId, state.head);
    state.headHeld = false;
    const waiter = state.waiting.shift(); // only while nothing is held (queue empty)
    if (waiter) {
      // The next delivery is one waiting in memory: it becomes the head and its own send goes on;
      // nothing is held any more, so the key's document goes.
      if (state.durable) await this.writes.deleteKey(state);
      state.durable = false;
      this.newHead(state, waiter.id);
      waiter.resolve(this.keys.sendHead(state));
      return;
    }
    if (!next) {
      if (state.durable) await this.writes.deleteKey(state);
      this.keys.delete(lockKey(state.endpointId, state.key));
      return;
    }
    this.newHead(state, next.id);
    state.headHeld = true;
    await this.writes.saveKey(state, true);
    this.released.inc({ why });
    await this.sendReleased(state, next.id, releasedMessage(next.messageJson));
  }

  private newHead(state: KeyState, id: string): void {
    state.head = id;
    state.since = new Date(this.deps.now());
    state.headStatus = null;
  }

  /** The released head goes out: sent here when this process owns its endpoint, else published. */
  private async sendReleased(state: KeyState, id: string, message: DeliveryMessage): Promise<void> {
    if (!this.sendHere || !this.deps.owns(state.endpointId)) {
      await this.writes.publishHeld(state.projectId, id, message);
      state.headHeld = false;
      return;
    }
    // Sent here, not awaited: the send takes the key's lock after this release. Its held
    // document goes once the send is recorded; a crash before that leaves it to the sweep.
    this.releasing.add(id);
    void this.sendHere(message)
      .then(() => this.handedOver(state, id))
      .catch((err: unknown) =>
        this.deps.logger.warn(
          { err, project_id: state.projectId, delivery_id: id },
          'released delivery not sent here; the ordering sweep publishes it',
        ),
      )
      .finally(() => this.releasing.delete(id));
  }

  /** A released head's send was handled here: its held document is no longer needed (unless it went already). */
  private async handedOver(state: KeyState, deliveryId: string): Promise<void> {
    if (state.head !== deliveryId || !state.headHeld) return;
    await this.writes.released(state.projectId, deliveryId);
    state.headHeld = false;
  }

  /** One blocked key as the sweep finds it. */
  async settle(listed: OrderingKeyDoc): Promise<void> {
    await this.keys.load(listed.project_id, listed.endpoint_id);
    let doc: OrderingKeyDoc | null = listed;
    let state = this.keys.get(lockKey(doc.endpoint_id, doc.key));
    // A key read from the database and not driven since: the list is newer than this process's view
    // when the previous owner moved the key on after it was read here, and the key as stored decides.
    if (state?.adopted && state.head !== doc.head) {
      ({ state, doc } = await this.keys.reread(doc.project_id, doc.endpoint_id, doc.key, state));
    }
    if (!state || !doc || state.head !== doc.head) return;
    // A key this process has followed since it was made needs nothing unless an operator asked.
    if (!state.adopted && !doc.skip_requested_at) return;
    if (this.releasing.has(doc.head)) return;
    const pending = state.headHeld ? await this.deps.store.ordering.findHeld(doc.project_id, doc.head) : null;
    if (pending) {
      await this.writes.publishHeld(doc.project_id, pending._id, releasedMessage(pending.message_json));
      state.headHeld = false;
      return;
    }
    return this.settleHead(state, doc);
  }

  /** The blocked key's head as stored: skipped by an operator, ended (and unblocking), or still on its way. */
  private async settleHead(state: KeyState, doc: OrderingKeyDoc): Promise<void> {
    const head = await this.deps.store.deliveries.findForSend(doc.project_id, doc.head);
    if (doc.skip_requested_at) {
      if (head && !FINAL_STATUSES.has(head.status)) await this.writes.discardHead(head);
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
    await this.writes.saveKey(state);
  }
}
