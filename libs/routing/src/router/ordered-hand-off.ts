import type { DeliveryMessage } from '@hookrail/bus';

/** An ordered event's place in its partition: its deliveries go out after the earlier events'. */
export interface Turn {
  /** Publishes after every earlier turn of the partition handed its messages on; resolves when acknowledged. */
  handOff(messages: DeliveryMessage[]): Promise<void>;
  /** The event handed nothing on (or failed before): later turns need not wait for it. */
  pass(): void;
}

interface Pending {
  messages: DeliveryMessage[];
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * Keeps the deliveries of ordered events in the order their events were consumed. The router
 * handles up to a thousand events at once, so the later of two events can finish routing first;
 * each ordered event takes a turn when it starts (in partition order) and hands its ordered
 * deliveries on only when the turns before it did. What is handed on is published by one
 * publish at a time per partition (everything that queued meanwhile goes together), so a later
 * produce request never overtakes an earlier one. A failed publish fails every message queued
 * behind it as well: none is published ahead of the ones that must be published again.
 */
export class OrderedHandOff {
  private readonly lastTurn = new Map<number, Promise<void>>();
  private readonly queues = new Map<number, { pending: Pending[]; flushing: boolean }>();

  constructor(private readonly publish: (messages: DeliveryMessage[]) => Promise<void>) {}

  /** Taken synchronously when the event's handling starts, so turns follow the partition's order. */
  take(partition: number): Turn {
    const earlier = this.lastTurn.get(partition) ?? Promise.resolve();
    let finish!: () => void;
    const mine = new Promise<void>((resolve) => (finish = resolve));
    this.lastTurn.set(partition, mine);
    void mine.then(() => {
      if (this.lastTurn.get(partition) === mine) this.lastTurn.delete(partition);
    });
    let done = false;
    const pass = () => {
      if (done) return;
      done = true;
      void earlier.then(finish);
    };
    return {
      handOff: async (messages) => {
        await earlier;
        const acknowledged = this.enqueue(partition, messages);
        done = true;
        finish();
        await acknowledged;
      },
      pass,
    };
  }

  private enqueue(partition: number, messages: DeliveryMessage[]): Promise<void> {
    if (messages.length === 0) return Promise.resolve();
    let queue = this.queues.get(partition);
    if (!queue) this.queues.set(partition, (queue = { pending: [], flushing: false }));
    const q = queue;
    const acknowledged = new Promise<void>((resolve, reject) =>
      q.pending.push({ messages, resolve, reject }),
    );
    if (!q.flushing) void this.flush(partition, q);
    return acknowledged;
  }

  private async flush(partition: number, q: { pending: Pending[]; flushing: boolean }): Promise<void> {
    q.flushing = true;
    while (q.pending.length > 0) {
      const batch = q.pending.splice(0);
      try {
        await this.publish(batch.flatMap((p) => p.messages));
        for (const p of batch) p.resolve();
      } catch (err) {
        for (const p of [...batch, ...q.pending.splice(0)]) p.reject(err);
      }
    }
    q.flushing = false;
    if (this.queues.get(partition) === q) this.queues.delete(partition);
  }
}
