/**
 * Group commit: gathers items submitted while earlier writes are in flight (many handlers of
 * Kafka batches run at once) into writes of up to `maxBatch` items, at most `maxInFlight` at a
 * time. Idle, an item is written on the next event-loop turn; busy, batches grow with the load,
 * so round trips per item fall as the rate rises. Every caller waits for the write that carried
 * its item, so an offset is committed only after its own item is durable. A write may return one
 * result per item (in order); the caller gets its own.
 */
export class Coalescer<T, R = void> {
  private queue: { item: T; resolve: (r: R) => void; reject: (e: unknown) => void }[] = [];
  private scheduled = false;
  private inFlight = 0;

  constructor(
    private readonly write: (items: T[]) => Promise<R[] | void>,
    private readonly maxBatch = 500,
    private readonly maxInFlight = 2,
  ) {}

  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.maxInFlight || this.queue.length === 0) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    while (this.queue.length > 0 && this.inFlight < this.maxInFlight) {
      const batch = this.queue.splice(0, this.maxBatch);
      this.inFlight++;
      this.write(batch.map((b) => b.item))
        .then(
          (results) => batch.forEach((b, i) => b.resolve((results ? results[i] : undefined) as R)),
          (err: unknown) => batch.forEach((b) => b.reject(err)),
        )
        .finally(() => {
          this.inFlight--;
          this.schedule();
        });
    }
  }
}
