import pTimeout from 'p-timeout';

/**
 * The messages a consumer is handling at once, bounded by count and by bytes: the fetch loop waits
 * until the next message fits. Both matter because a message may be up to 16 MiB: a thousand
 * small events are a few MiB, a thousand large ones would be far more than a pod's memory.
 */
export class InFlight {
  private count = 0;
  private bytes = 0;
  private readonly slotWaiters = new Set<() => void>();
  private idle: (() => void) | null = null;

  constructor(
    private readonly limit: number,
    private readonly byteLimit = Number.POSITIVE_INFINITY,
  ) {}

  /** Whether a message of `bytes` may start now. One always may when nothing is in flight. */
  admits(bytes: number): boolean {
    return this.count === 0 || (this.count < this.limit && this.bytes + bytes <= this.byteLimit);
  }

  /** Resolves when a message finishes (ask `admits` again). */
  slotFreed(): Promise<void> {
    return new Promise<void>((r) => this.slotWaiters.add(r));
  }

  started(bytes: number): void {
    this.count++;
    this.bytes += bytes;
  }

  finished(bytes: number): void {
    this.count--;
    this.bytes -= bytes;
    for (const wake of this.slotWaiters) wake();
    this.slotWaiters.clear();
    if (this.count === 0) this.idle?.();
  }

  /** Resolves when nothing is in flight, or after `timeoutMs`. */
  async settled(timeoutMs: number): Promise<void> {
    if (this.count === 0) return;
    const done = new Promise<void>((r) => (this.idle = r));
    await pTimeout(done, { milliseconds: timeoutMs, message: false });
  }
}
