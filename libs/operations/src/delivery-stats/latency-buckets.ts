/**
 * The fixed latency histogram of the per-minute delivery counters: upper bounds in ms of buckets
 * 0…9; bucket 10 holds everything slower. Fixed so that minutes add up bucket by bucket and p50/p95
 * are estimated from the sums (within a bucket's width) without keeping each latency.
 */
export const LATENCY_BOUNDS_MS = [25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000, 30_000] as const;
export const LATENCY_BUCKETS = LATENCY_BOUNDS_MS.length + 1;

export function latencyBucket(ms: number): number {
  const i = LATENCY_BOUNDS_MS.findIndex((bound) => ms <= bound);
  return i === -1 ? LATENCY_BOUNDS_MS.length : i;
}

/**
 * The q-quantile (0 < q ≤ 1) of a histogram, interpolated linearly inside the bucket that holds it
 * (null without attempts). The open last bucket answers its lower bound: "at least 30 s".
 */
export function estimateQuantile(histogram: readonly number[], q: number): number | null {
  const total = histogram.reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const rank = q * total;
  let seen = 0;
  for (let i = 0; i < histogram.length; i++) {
    const n = histogram[i] ?? 0;
    if (n > 0 && seen + n >= rank) {
      const lower = i === 0 ? 0 : LATENCY_BOUNDS_MS[i - 1];
      if (i >= LATENCY_BOUNDS_MS.length) return lower;
      const upper = LATENCY_BOUNDS_MS[i];
      return Math.round(lower + ((rank - seen) / n) * (upper - lower));
    }
    seen += n;
  }
  return LATENCY_BOUNDS_MS[LATENCY_BOUNDS_MS.length - 1];
}
