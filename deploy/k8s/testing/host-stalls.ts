import { existsSync, readFileSync } from 'node:fs';

/**
 * Share of a phase's wall time during which tasks on this host waited for a CPU, for I/O or for
 * memory (the kernel's pressure stall information): `some` is time at least one task waited,
 * `full` time every runnable task did. What tells a slow host from a slow Hookrail when a phase
 * sees refusals (every pod, Kafka and the MongoDB-protocol server share this host's cores and disk).
 */
export interface StallShares {
  cpuSome: number;
  ioSome: number;
  ioFull: number;
  memorySome: number;
}

type Totals = Record<keyof StallShares, number>;

/** The `total=` (µs since boot) of the `some` or `full` line of one /proc/pressure file. */
export function pressureTotalUs(text: string, kind: 'some' | 'full'): number {
  const m = new RegExp(`^${kind} .*\\btotal=(\\d+)\\s*$`, 'm').exec(text);
  if (!m) throw new Error(`no "${kind} … total=" line in /proc/pressure text: ${text.slice(0, 80)}`);
  return Number(m[1]);
}

const PSI_DIR = '/proc/pressure';

function readTotals(): Totals | null {
  // A kernel built without PSI (or booted with psi=0) has no such files: the figures are absent.
  if (!existsSync(`${PSI_DIR}/cpu`)) return null;
  const read = (resource: string) => readFileSync(`${PSI_DIR}/${resource}`, 'utf8');
  const [cpu, io, memory] = ['cpu', 'io', 'memory'].map(read);
  return {
    cpuSome: pressureTotalUs(cpu, 'some'),
    ioSome: pressureTotalUs(io, 'some'),
    ioFull: pressureTotalUs(io, 'full'),
    memorySome: pressureTotalUs(memory, 'some'),
  };
}

/** Each stall total's growth between two readings as a share of `elapsedUs`, to two decimals. */
export function stallShares(before: Totals, after: Totals, elapsedUs: number): StallShares {
  const share = (k: keyof StallShares) =>
    elapsedUs > 0 ? Math.round(((after[k] - before[k]) / elapsedUs) * 100) / 100 : 0;
  return {
    cpuSome: share('cpuSome'),
    ioSome: share('ioSome'),
    ioFull: share('ioFull'),
    memorySome: share('memorySome'),
  };
}

/** Starts counting now; `shares()` gives the stall shares since then (null without PSI). */
export function watchHostStalls(): { shares(): StallShares | null } {
  const before = readTotals();
  const t0 = process.hrtime.bigint();
  return {
    shares: () => {
      const after = readTotals();
      if (!before || !after) return null;
      return stallShares(before, after, Number((process.hrtime.bigint() - t0) / 1000n));
    },
  };
}
