import pLimit from 'p-limit';

/** An optional bound on a write's size besides its item count (e.g. bytes of a produce request). */
export interface BatchWeight<T> {
  of(item: T): number;
  /** A write carries at most this much weight; an item heavier on its own is written alone. */
  max: number;
}

/**
 * For the records written beside the delivery path (event and delivery documents, outcomes,
 * schedules): nothing waits on them but the offset commit, so a short linger turns a low rate's
 * one-document writes into batches, which is what a database server pays for per round trip. A
 * process sends them one write at a time: the writes queued meanwhile make the next batches
 * larger, and a server that serialises writes internally does not pay for overlapping ones
 * (measured on the local server: half the CPU per document; docs/decisions.md, "Write path").
 * Up to 1,000 documents a write, so one write carries what a router with 2,000 events in flight
 * queues behind the one before (the driver splits a write that would pass the server's message size).
 */
export const RECORD_WRITES: Pick<CoalescerOptions<unknown>, 'lingerMs' | 'gate' | 'maxBatch'> = {
  lingerMs: 100,
  maxBatch: 1000,
  gate: pLimit(1),
};

export interface CoalescerOptions<T> {
  /** Items in one write (default 500). */
  maxBatch?: number;
  /** Writes in flight at once (default 2). */
  maxInFlight?: number;
  weight?: BatchWeight<T>;
  /**
   * Shared by coalescers whose writes must not overlap one another's: a write waits for a slot and
   * takes its batch when it gets one.
   */
  gate?: pLimit.Limit;
  /**
   * How long a write smaller than `maxBatch` waits for company (default 0: the next event-loop
   * turn). For writes off the latency path, so a low rate still writes in batches.
   */
  lingerMs?: number;
}

/**
 * Group commit: gathers items submitted while earlier writes are in flight (many handlers of
 * Kafka batches run at once) into writes of up to `maxBatch` items (and `weight.max`), at most
 * `maxInFlight` at a time. Idle, an item is written on the next event-loop turn (or after
 * `lingerMs`); busy, batches grow with the load, so round trips per item fall as the rate rises.
 * Every caller waits for the write that carried its item, so an offset is committed only after its
 * own item is durable. A write may return one result per item (in order); the caller gets its own.
 */
export class Coalescer<T, R = void> {
  private queue: { item: T; resolve: (r: R) => void; reject: (e: unknown) => void }[] = [];
  private scheduled = false;
  /** A write of this coalescer is waiting for the shared gate (it takes its batch when let go). */
  private awaitingGate = false;
  private inFlight = 0;
  private idle: (() => void)[] = [];
  private readonly maxBatch: number;
  private readonly maxInFlight: number;
  private readonly weight?: BatchWeight<T>;
  private readonly lingerMs: number;
  private readonly gate?: pLimit.Limit;

  constructor(
    private readonly write: (items: T[]) => Promise<R[] | void>,
    opts: CoalescerOptions<T> = {},
  ) {
    this.maxBatch = opts.maxBatch ?? 500;
    this.maxInFlight = opts.maxInFlight ?? 2;
    this.weight = opts.weight;
    this.lingerMs = opts.lingerMs ?? 0;
    this.gate = opts.gate;
  }

  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  /** Resolves once everything submitted so far is written (or failed). */
  drain(): Promise<void> {
    if (this.queue.length === 0 && this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private schedule(): void {
    if (this.scheduled || this.awaitingGate || this.inFlight >= this.maxInFlight || this.queue.length === 0)
      return;
    this.scheduled = true;
    // A full batch goes at once; a smaller one waits for company, also beside a write in flight.
    if (this.lingerMs > 0 && this.queue.length < this.maxBatch) setTimeout(() => this.flush(), this.lingerMs);
    else setImmediate(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    while (this.queue.length > 0 && this.inFlight < this.maxInFlight && !this.awaitingGate) {
      this.inFlight++;
      if (!this.gate) {
        void this.writeNext();
        continue;
      }
      // The batch is taken when the gate lets this write go, not before: items submitted while it
      // waits behind the other coalescers' writes go with it instead of a whole turn later.
      this.awaitingGate = true;
      void this.gate(() => {
        this.awaitingGate = false;
        const written = this.writeNext();
        this.schedule(); // the next write waits for the gate meanwhile, gathering what comes
        return written;
      });
    }
  }

  /** Writes the queued items the next write takes; its callers learn the outcome. */
  private writeNext(): Promise<void> {
    const batch = this.queue.splice(0, this.batchLength());
    const items = batch.map((b) => b.item);
    // A writer that throws instead of rejecting fails its callers all the same.
    return Promise.resolve()
      .then(() => this.write(items))
      .then(
        (results) => batch.forEach((b, i) => b.resolve((results ? results[i] : undefined) as R)),
        (err: unknown) => batch.forEach((b) => b.reject(err)),
      )
      .finally(() => {
        this.inFlight--;
        this.schedule();
        if (this.queue.length === 0 && this.inFlight === 0) this.idle.splice(0).forEach((r) => r());
      });
  }

  /** How many queued items the next write takes: within the count and the weight bounds. */
  private batchLength(): number {
    const limit = Math.min(this.queue.length, this.maxBatch);
    if (!this.weight) return limit;
    let n = 0;
    let total = 0;
    while (n < limit) {
      const w = this.weight.of(this.queue[n].item);
      if (n > 0 && total + w > this.weight.max) break;
      total += w;
      n++;
    }
    return n;
  }
}
