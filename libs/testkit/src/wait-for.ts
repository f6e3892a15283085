/** Polls `probe` until it returns a value other than undefined/false, or fails after `timeoutMs` with `what`. */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined | false | null> | T | undefined | false | null,
  opts: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + (opts.timeoutMs ?? 15_000);
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false && value !== null) return value as T;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}${lastError ? `: ${(lastError as Error).message}` : ''}`);
    }
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 50));
  }
}

/**
 * Waits for `done` while `progress` keeps rising: fails once it has not risen for `stallMs` (a
 * stall, whatever the host), or after `timeoutMs` in all. For runs whose pace follows the host's
 * load, where a fixed deadline cannot tell a slow run from a stuck one.
 */
export async function waitWhileProgressing(
  what: string,
  done: () => boolean,
  progress: () => number,
  opts: { stallMs: number; timeoutMs: number; intervalMs?: number },
): Promise<void> {
  const start = Date.now();
  let last = progress();
  let lastRise = start;
  while (!done()) {
    const now = Date.now();
    const seen = progress();
    if (seen > last) [last, lastRise] = [seen, now];
    if (now - lastRise > opts.stallMs)
      throw new Error(`timed out waiting for ${what}: no progress for ${opts.stallMs} ms (at ${last})`);
    if (now - start > opts.timeoutMs) throw new Error(`timed out waiting for ${what} (${opts.timeoutMs} ms)`);
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 250));
  }
}
