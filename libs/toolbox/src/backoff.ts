/**
 * The one backoff helper for in-process retry loops (reconnects, transient I/O): exponential with
 * full jitter, capped.
 */
export function backoffMs(
  attempt: number,
  opts: { baseMs?: number; maxMs?: number; random?: () => number } = {},
): number {
  const base = opts.baseMs ?? 200;
  const max = opts.maxMs ?? 10_000;
  const ceiling = Math.min(max, base * 2 ** attempt);
  return Math.round(ceiling / 2 + (ceiling / 2) * (opts.random ?? Math.random)());
}
