/**
 * Counts failures per key (a client IP, an API key id) in a fixed window that starts with the
 * first failure: once `limit` failures are counted, the key is refused until the window ends. In
 * memory and bounded (`maxKeys`, the oldest windows are forgotten first), so one process's view.
 */
export class FailureThrottle {
  private readonly windows = new Map<string, { count: number; endsAt: number }>();

  constructor(private readonly opts: { limit: number; windowMs: number; maxKeys?: number }) {}

  /** How long `key` is still refused, in ms (0: it may try). */
  blockedFor(key: string, now: number): number {
    const w = this.windows.get(key);
    if (!w) return 0;
    if (w.endsAt <= now) {
      this.windows.delete(key);
      return 0;
    }
    return w.count >= this.opts.limit ? w.endsAt - now : 0;
  }

  fail(key: string, now: number): void {
    const w = this.windows.get(key);
    if (w && w.endsAt > now) {
      w.count++;
      return;
    }
    this.windows.delete(key); // re-inserted last: the map stays ordered by window start
    this.windows.set(key, { count: 1, endsAt: now + this.opts.windowMs });
    const max = this.opts.maxKeys ?? 100_000;
    for (const k of this.windows.keys()) {
      if (this.windows.size <= max) break;
      this.windows.delete(k);
    }
  }

  reset(key: string): void {
    this.windows.delete(key);
  }
}
