/** The messages a consumer is handling at once, bounded: the fetch loop waits for a free slot. */
export class InFlight {
  private count = 0;
  private readonly slotWaiters = new Set<() => void>();
  private idle: (() => void) | null = null;

  constructor(private readonly limit: number) {}

  get full(): boolean {
    return this.count >= this.limit;
  }

  /** Resolves when a message finishes (check `full` again). */
  slotFreed(): Promise<void> {
    return new Promise<void>((r) => this.slotWaiters.add(r));
  }

  started(): void {
    this.count++;
  }

  finished(): void {
    this.count--;
    for (const wake of this.slotWaiters) wake();
    this.slotWaiters.clear();
    if (this.count === 0) this.idle?.();
  }

  /** Resolves when nothing is in flight, or after `timeoutMs`. */
  async settled(timeoutMs: number): Promise<void> {
    if (this.count === 0) return;
    const done = new Promise<void>((r) => (this.idle = r));
    await Promise.race([done, new Promise((r) => setTimeout(r, timeoutMs))]);
  }
}
