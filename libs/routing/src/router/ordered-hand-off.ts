import type { DeliveryMessage } from '@hookrail/bus';
import { isRetriable } from '@hookrail/domain';
import { backoffMs } from '@hookrail/toolbox';

/** An ordered event's place in its partition: its deliveries go out after the earlier events'. */
export interface Turn {
  /** Publishes after every earlier turn of the partition handed its messages on; resolves when acknowledged. */
  handOff(messages: DeliveryMessage[]): Promise<void>;
  /** The event handed nothing on, or its handling was given up: later turns need not wait for it. */
  pass(): void;
  /** Counts a failed attempt; the turn stays taken for the next attempt. Returns the failures so far. */
  failed(): number;
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
 * produce request never overtakes an earlier one; a publish that fails retriably is tried again
 * before anything queued behind it.
 *
 * A turn belongs to the event's offset: an attempt that failed (a configuration read that timed
 * out fails every event waiting on it) keeps its place, and the consumer's next attempt of the
 * same offset takes the same turn instead of queueing behind later events.
 */
export class OrderedHandOff {
  private readonly lastTurn = new Map<number, Promise<void>>();
  /** Turns taken and not yet ended, by `<partition>/<offset>`. */
  private readonly open = new Map<string, Turn>();
  private readonly queues = new Map<number, { pending: Pending[]; flushing: boolean }>();

  constructor(private readonly publish: (messages: DeliveryMessage[]) => Promise<void>) {}

  /** Taken synchronously when the event's handling starts, so turns follow the partition's order. */
  take(partition: number, offset: string): Turn {
    const id = `${partition}/${offset}`;
    const again = this.open.get(id);
    if (again) return again;
    const earlier = this.lastTurn.get(partition) ?? Promise.resolve();
    let finish!: () => void;
    const mine = new Promise<void>((resolve) => (finish = resolve));
    this.lastTurn.set(partition, mine);
    void mine.then(() => {
      if (this.lastTurn.get(partition) === mine) this.lastTurn.delete(partition);
    });
    let done = false;
    let failures = 0;
    const end = () => {
      done = true;
      this.open.delete(id);
    };
    const turn: Turn = {
      handOff: async (messages) => {
        await earlier;
        const acknowledged = this.enqueue(partition, messages);
        end();
        finish();
        await acknowledged;
      },
      pass: () => {
        if (done) return;
        end();
        void earlier.then(finish);
      },
      failed: () => ++failures,
    };
    this.open.set(id, turn);
    return turn;
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
      const published = await this.publishChunks(batch.flatMap((p) => p.messages));
      for (const p of batch)
        if (published === true) p.resolve();
        else p.reject(published);
    }
    q.flushing = false;
    if (this.queues.get(partition) === q) this.queues.delete(partition);
  }

  /**
   * Chunks small enough for one produce request each (the publisher's limits are 500 messages
   * and 4 MiB), published one after the other: a failed request is tried again before the next.
   */
  private async publishChunks(messages: DeliveryMessage[]): Promise<true | unknown> {
    for (const chunk of chunks(messages)) {
      const published = await this.publishInPlace(chunk);
      if (published !== true) return published;
    }
    return true;
  }

  /**
   * A retriable failure (Kafka unreachable, a leader moving) is retried here, in place, so no
   * later batch goes ahead of this one; the events wait as every publish would. Any other failure
   * is the caller's (the consumer dead-letters those events). Returns true or the error.
   */
  private async publishInPlace(messages: DeliveryMessage[]): Promise<true | unknown> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.publish(messages);
        return true;
      } catch (err) {
        if (!isRetriable(err)) return err;
        await new Promise((r) => setTimeout(r, backoffMs(attempt, { maxMs: 5000 })));
      }
    }
  }
}

const CHUNK_MESSAGES = 400;
const CHUNK_BYTES = 2 * 1024 * 1024;

function chunks(messages: DeliveryMessage[]): DeliveryMessage[][] {
  const out: DeliveryMessage[][] = [];
  let current: DeliveryMessage[] = [];
  let bytes = 0;
  for (const m of messages) {
    const size = Buffer.byteLength(JSON.stringify(m));
    if (current.length > 0 && (current.length >= CHUNK_MESSAGES || bytes + size > CHUNK_BYTES)) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(m);
    bytes += size;
  }
  if (current.length > 0) out.push(current);
  return out;
}
