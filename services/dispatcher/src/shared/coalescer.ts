/**
 * Gathers items submitted in the same event-loop turn (many handlers of one Kafka batch run at
 * once) into one write. Every caller still waits for the write that carried its item, so an
 * offset is committed only after its own item is durable.
 */
export class Coalescer<T> {
  private queue: { item: T; resolve: () => void; reject: (e: unknown) => void }[] = [];
  private scheduled = false;

  constructor(
    private readonly write: (items: T[]) => Promise<void>,
    private readonly maxBatch = 500,
  ) {}

  submit(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (this.queue.length >= this.maxBatch) this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.queue;
    this.queue = [];
    if (batch.length === 0) return;
    this.write(batch.map((b) => b.item)).then(
      () => batch.forEach((b) => b.resolve()),
      (err: unknown) => batch.forEach((b) => b.reject(err)),
    );
  }
}
