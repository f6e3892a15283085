import { performance } from 'node:perf_hooks';

export interface LocalSlotsOptions {
  /** Slots in all. */
  max: number;
  /** Longest a taker waits for a slot. */
  maxWaitMs: number;
  /** Slots none of which was released for this long are stalled: takers give up at once. */
  stallMs: number;
}

interface Waiter {
  key: string;
  since: number;
  grant: (taken: boolean) => void;
}

/**
 * A bounded number of slots shared by keys (endpoints). A slot is taken at once when one is free.
 * When all are taken, a taker waits (first in, first served) only if its own key already holds
 * slots and slots keep being released: a busy key's slots turn over as its work finishes, and
 * waiting for one is cheaper than the alternative; a key holding none does not queue behind the
 * others, and nobody waits on slots held by work that hangs. Each taken slot is released once,
 * with the key it was taken for.
 */
export class LocalSlots {
  private used = 0;
  private releasedAt = -Infinity;
  private readonly held = new Map<string, number>();
  private readonly waiting: Waiter[] = [];
  private watch: NodeJS.Timeout | undefined;

  constructor(private readonly opts: LocalSlotsOptions) {}

  /** Whether a slot was taken for `key`: at once, or a promise settled when one is handed over or not. */
  take(key: string): boolean | Promise<boolean> {
    if (this.used < this.opts.max) {
      this.used++;
      this.hold(key, 1);
      return true;
    }
    if (!this.held.has(key) || this.stalled(performance.now())) return false;
    return new Promise<boolean>((grant) => {
      this.waiting.push({ key, since: performance.now(), grant });
      this.watch ??= setInterval(() => this.expire(), Math.min(this.opts.stallMs, this.opts.maxWaitMs));
    });
  }

  /** Gives back a slot taken for `key`, to the longest waiter if any. */
  release(key: string): void {
    this.releasedAt = performance.now();
    this.hold(key, -1);
    const next = this.waiting.shift();
    if (!next) {
      this.used--;
      return;
    }
    this.hold(next.key, 1);
    next.grant(true);
  }

  private hold(key: string, delta: number): void {
    const n = (this.held.get(key) ?? 0) + delta;
    if (n > 0) this.held.set(key, n);
    else this.held.delete(key);
  }

  private stalled(now: number): boolean {
    return now - this.releasedAt > this.opts.stallMs;
  }

  /** Sends the waiters away when the slots stalled, and those that waited their longest. */
  private expire(): void {
    const now = performance.now();
    const stalled = this.stalled(now);
    while (this.waiting.length && (stalled || now - this.waiting[0].since >= this.opts.maxWaitMs))
      this.waiting.shift()!.grant(false);
    if (this.waiting.length === 0) {
      clearInterval(this.watch);
      this.watch = undefined;
    }
  }
}
