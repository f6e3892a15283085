const BUCKET_MS = 10_000;

/**
 * Successes and failures over the last `windowMs`, in 10-second buckets: constant memory per
 * endpoint at any send rate. Feeds the circuit breaker and the endpoint's `failure_rate`.
 */
export class AttemptWindow {
  private buckets = new Map<number, { ok: number; failed: number }>();

  constructor(private readonly windowMs = 5 * 60_000) {}

  record(success: boolean, nowMs: number): void {
    const b = Math.floor(nowMs / BUCKET_MS);
    let bucket = this.buckets.get(b);
    if (!bucket) this.buckets.set(b, (bucket = { ok: 0, failed: 0 }));
    if (success) bucket.ok++;
    else bucket.failed++;
    this.prune(nowMs);
  }

  totals(nowMs: number): { total: number; failed: number } {
    this.prune(nowMs);
    let total = 0;
    let failed = 0;
    for (const b of this.buckets.values()) {
      total += b.ok + b.failed;
      failed += b.failed;
    }
    return { total, failed };
  }

  /** The failed share of attempts in the window, in whole percent (0 without attempts). */
  failureRate(nowMs: number): number {
    const { total, failed } = this.totals(nowMs);
    return total === 0 ? 0 : Math.round((failed / total) * 100);
  }

  clear(): void {
    this.buckets.clear();
  }

  private prune(nowMs: number): void {
    const oldest = Math.floor((nowMs - this.windowMs) / BUCKET_MS);
    for (const b of this.buckets.keys()) if (b <= oldest) this.buckets.delete(b);
  }
}
