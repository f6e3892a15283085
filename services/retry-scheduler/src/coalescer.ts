/**
 * Gathers items written in the same tick into one call of `flush`; every writer waits for the
 * batch its item went into. Lets a per-message Kafka handler write thousands of entries per second
 * as a few bulk inserts.
 */
export class Coalescer<T> {
  private pending: { item: T; resolve: () => void; reject: (err: unknown) => void }[] = [];
  private scheduled = false;

  constructor(
    private readonly flush: (items: T[]) => Promise<void>,
    private readonly maxBatch = 1000,
  ) {}

  write(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      if (this.pending.length >= this.maxBatch) this.run();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.run());
      }
    });
  }

  private run(): void {
    this.scheduled = false;
    const batch = this.pending.splice(0, this.pending.length);
    if (batch.length === 0) return;
    this.flush(batch.map((p) => p.item)).then(
      () => batch.forEach((p) => p.resolve()),
      (err: unknown) => batch.forEach((p) => p.reject(err)),
    );
  }
}
