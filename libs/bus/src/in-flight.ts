import pTimeout from 'p-timeout';

/**
 * The messages a consumer is handling at once, bounded by count and by bytes: the fetch loop waits
 * until the next message fits. Both matter because a message may be up to 16 MiB: a thousand
 * small events are a few MiB, a thousand large ones would be far more than a pod's memory.
 */
export class InFlight {
  private count = 0;
  private bytes = 0;
  /** Messages still being handled out of the window (`left`): a drain waits for them too. */
  private outside = 0;
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

  /** Resolves when a message finishes or leaves the window (ask `admits` again). */
  slotFreed(): Promise<void> {
    return new Promise<void>((r) => this.slotWaiters.add(r));
  }

  started(bytes: number): void {
    this.count++;
    this.bytes += bytes;
  }

  /** A message gives its place up while it is still handled. */
  left(bytes: number): void {
    this.vacate(bytes);
    this.outside++;
    this.wakeSlotWaiters();
  }

  /** A message that left takes a place again (it failed and is retried in place), even over the limit. */
  reentered(bytes: number): void {
    this.outside--;
    this.started(bytes);
  }

  /** A message is done: `inWindow` says whether it held its place to the end. */
  finished(bytes: number, inWindow = true): void {
    if (inWindow) this.vacate(bytes);
    else this.outside--;
    this.wakeSlotWaiters();
    if (this.count === 0 && this.outside === 0) this.idle?.();
  }

  /** Resolves when nothing is handled, in the window or out of it, or after `timeoutMs`. */
  async settled(timeoutMs: number): Promise<void> {
    if (this.count === 0 && this.outside === 0) return;
    const done = new Promise<void>((r) => (this.idle = r));
    await pTimeout(done, { milliseconds: timeoutMs, message: false });
  }

  private vacate(bytes: number): void {
    this.count--;
    this.bytes -= bytes;
  }

  private wakeSlotWaiters(): void {
    for (const wake of this.slotWaiters) wake();
    this.slotWaiters.clear();
  }
}
