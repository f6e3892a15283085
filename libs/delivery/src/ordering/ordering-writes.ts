import type { DeliveryMessage, Publisher } from '@hookrail/bus';
import { type ProjectId } from '@hookrail/domain';
import { Coalescer } from '@hookrail/toolbox';
import type { DeliveryDoc, HeldDeliveryDoc, KeyStateWrite, ScopedId, Store } from '@hookrail/store';
import type { Metrics } from '@hookrail/telemetry';
import type { KeyState, ToHold } from './key-state';

const SKIPPED_REASON = 'skipped by an operator to unblock its ordering key';

export interface OrderingWritesDeps {
  store: Store;
  publisher: Publisher;
  metrics: Metrics;
  /** The deployment's Kafka topic prefix, written on each key: its dispatchers sweep only their own. */
  deployment: string;
  now: () => number;
}

/**
 * What the ordering writes down, and the reads on the sending path: a key's document, the
 * deliveries held behind it, their release. Every database call is group-committed: a thousand
 * keys moving at once share round trips. Each caller still waits for its own write, so the order
 * of one key's writes holds.
 */
export class OrderingWrites {
  private readonly db: {
    hold: Coalescer<HeldDeliveryDoc>;
    released: Coalescer<ScopedId>;
    saveKey: Coalescer<KeyStateWrite>;
    deleteKey: Coalescer<{ projectId: ProjectId; endpointId: string; key: string }>;
    findDelivery: Coalescer<ScopedId, DeliveryDoc | null>;
  };
  private readonly held;

  constructor(private readonly deps: OrderingWritesDeps) {
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
  }

  /** The key's document, as the state says; `newHead`: a released delivery just became its head. */
  async saveKey(state: KeyState, newHead = false): Promise<void> {
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

  deleteKey(state: KeyState): Promise<void> {
    return this.db.deleteKey.submit({
      projectId: state.projectId,
      endpointId: state.endpointId,
      key: state.key,
    });
  }

  /** Writes deliveries down behind the key's head, in the order given, and queues them. */
  async hold(state: KeyState, deliveries: ToHold[]): Promise<void> {
    const created = new Date(this.deps.now());
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

  /** A held delivery's document goes: it was released (and handed on). */
  released(projectId: ProjectId, deliveryId: string): Promise<void> {
    return this.db.released.submit({ projectId, id: deliveryId });
  }

  /** A released delivery sent through the deliveries topic, then its held document goes. */
  async publishHeld(projectId: ProjectId, deliveryId: string, message: DeliveryMessage): Promise<void> {
    await this.deps.publisher.publish('deliveries', [message]);
    await this.released(projectId, deliveryId);
  }

  /** The delivery as stored (its recorded status), read with others of the moment. */
  findDelivery(projectId: ProjectId, deliveryId: string): Promise<DeliveryDoc | null> {
    return this.db.findDelivery.submit({ projectId, id: deliveryId });
  }

  /** An operator skipped the key's head: it is recorded as Discarded. */
  discardHead(head: DeliveryDoc): Promise<void> {
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
