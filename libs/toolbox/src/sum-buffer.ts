export interface SumBufferOptions<T> {
  /** Writes the sums gathered since the last write, one item per key. */
  write: (items: T[]) => Promise<void>;
  /** Adds `next` into `sum` (the item already held for the same key). */
  merge: (sum: T, next: T) => void;
  /** Told of a failed write; its sums are dropped. */
  onError: (err: unknown, items: number) => void;
  /** How often sums are written (2 s: the project's statistics are this fresh). */
  flushMs?: number;
  /** A write is started early once this many keys wait (5,000). */
  maxKeys?: number;
}

const FLUSH_MS = 2_000;
const MAX_KEYS = 5_000;

/**
 * Statistics added up by key in memory and written every `flushMs` as one write: a counter bumped
 * per event costs its database one update per key per interval instead of one per event (on the
 * local server an update costs about eight inserts). Best-effort by design: `add` never waits or
 * fails, a failed write is reported and dropped, and sums not yet written are lost only if the
 * process dies; a graceful stop calls `flush` last.
 */
export class SumBuffer<T> {
  private sums = new Map<string, T>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly o: SumBufferOptions<T>) {}

  /** The first item of a key becomes its sum, merged into from then on: pass a fresh object. */
  add(key: string, item: T): void {
    const sum = this.sums.get(key);
    if (sum) this.o.merge(sum, item);
    else this.sums.set(key, item);
    if (this.sums.size >= (this.o.maxKeys ?? MAX_KEYS)) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.o.flushMs ?? FLUSH_MS);
      this.timer.unref(); // statistics never keep a stopping process alive
    }
  }

  /** Writes what has been added so far; never throws. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.sums.size === 0) return;
    const items = [...this.sums.values()];
    this.sums = new Map();
    try {
      await this.o.write(items);
    } catch (err) {
      this.o.onError(err, items.length);
    }
  }
}
