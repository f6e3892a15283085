import { threadId } from 'node:worker_threads';

/** CPU time this thread has used, in ms (user + system). */
export function threadCpuMs(): number {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
}

/** What a worker tells the pool as it starts a call: which thread runs it, and its CPU then. */
export interface CallStart {
  threadId: number;
  cpuMs: number;
}

export function callStart(): CallStart {
  return { threadId, cpuMs: threadCpuMs() };
}

export interface CallDeadline {
  /** CPU the call may use before it is stopped. */
  cpuBudgetMs: number;
  /** Wall time after which the call is stopped whatever CPU it had: its thread is being starved. */
  wallLimitMs: number;
  /** CPU the call's thread has used since the call started, in ms; undefined when it cannot be read (wall time only). */
  readCpuMs: () => Promise<number | undefined>;
  stop: () => void;
}

/**
 * Calls `stop` once the call's thread has used its CPU budget, or the wall limit has passed.
 * The thread's CPU is read from outside (`Worker.cpuUsage`), so a thread stuck in one long
 * built-in is seen too. A thread that is waiting for a core is not charged for the wait: the check
 * is re-armed for the CPU it has left. Returns a function that cancels the watch.
 */
export function watchCallDeadline(d: CallDeadline): () => void {
  const wallEnd = Date.now() + d.wallLimitMs;
  let timer: NodeJS.Timeout | undefined;
  let cancelled = false;
  const arm = (ms: number) => {
    timer = setTimeout(check, Math.max(1, Math.min(ms, wallEnd - Date.now())));
  };
  const check = async () => {
    const used = (await d.readCpuMs().catch(() => undefined)) ?? Infinity;
    if (cancelled) return;
    const left = d.cpuBudgetMs - used;
    if (left <= 0 || Date.now() >= wallEnd) return d.stop();
    // At least 10 ms between reads: a starved thread is not polled in a tight loop.
    arm(Math.max(left, 10));
  };
  arm(d.cpuBudgetMs);
  return () => {
    cancelled = true;
    clearTimeout(timer);
  };
}
