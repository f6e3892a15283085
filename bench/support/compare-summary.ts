import type { BenchPhase, BenchResult } from './bench-result';

/** One run of each tree, run back to back. */
export interface RunPair {
  current: BenchResult;
  baseline: BenchResult;
}

/** The figures the performance comparison is judged on, of one run's events-API phases. */
export interface ApiFigures {
  maxRate: number;
  /** Stack total above idle, ms per delivered event, at max rate; then each process's. */
  maxCpu: number;
  maxCpuByProcess: Record<string, number>;
  fixedP99: number;
  fixedCpu: number;
  /** Times the stack's processes were woken per delivered event at 200/s, above their rates at rest. */
  fixedWakeUps: number;
  lost: number;
  duplicates: number;
  badSignatures: number;
}

const TOTAL = 'hookrail total';
const LOAD = 'load generator + receiver';

function apiPhase(r: BenchResult, kind: 'max rate' | 'fixed rate'): BenchPhase {
  const p = r.phases.find((x) => x.label.startsWith(`events API, ${kind}`));
  if (!p) throw new Error(`the run has no events API ${kind} phase (was it run with BENCH_TRAFFIC=api?)`);
  return p;
}

const aboveIdle = (p: BenchPhase, name: string) =>
  p.cpuPerEvent.find((c) => c.name === name)?.aboveIdle ?? NaN;

export function apiFigures(r: BenchResult): ApiFigures {
  const max = apiPhase(r, 'max rate');
  const fixed = apiPhase(r, 'fixed rate');
  const maxCpuByProcess: Record<string, number> = {};
  for (const c of max.cpuPerEvent)
    if (c.name !== TOTAL && c.name !== LOAD && c.aboveIdle !== undefined)
      maxCpuByProcess[c.name] = c.aboveIdle;
  return {
    maxRate: max.eventsPerSecond,
    maxCpu: aboveIdle(max, TOTAL),
    maxCpuByProcess,
    fixedP99: fixed.latencyMs.p99,
    fixedCpu: aboveIdle(fixed, TOTAL),
    fixedWakeUps: fixed.cpuPerEvent.find((c) => c.name === TOTAL)?.wakeUps?.aboveIdle ?? NaN,
    lost: r.lost,
    duplicates: r.duplicates,
    badSignatures: r.badSignatures,
  };
}

/** `lo–hi` of a figure over runs (one value when they agree to the digits shown), in en-US digits. */
export const formatRange = (xs: number[], digits: number): string => {
  const fmt = (x: number) =>
    x.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
  const [lo, hi] = [fmt(Math.min(...xs)), fmt(Math.max(...xs))];
  return lo === hi ? lo : `${lo}–${hi}`;
};

/**
 * A markdown table: each tree's range over its runs, and the ratio current / baseline run by run
 * (each pair ran back to back, so the host's drift between pairs cancels out of the ratio).
 */
export function compareTable(pairs: RunPair[], baselineName: string): string[] {
  const cur = pairs.map((p) => apiFigures(p.current));
  const base = pairs.map((p) => apiFigures(p.baseline));
  const row = (label: string, pick: (f: ApiFigures) => number, digits: number) => {
    // A ratio of runs at or under their rate at rest (Kafka's CPU above idle can round to 0) means
    // nothing: shown only when every pair's is finite and not negative.
    const ratios = cur.map((c, i) => pick(c) / pick(base[i]));
    const ratio = ratios.every((r) => Number.isFinite(r) && r >= 0) ? `${formatRange(ratios, 2)}×` : '—';
    return `| ${label} | ${formatRange(base.map(pick), digits)} | ${formatRange(cur.map(pick), digits)} | ${ratio} |`;
  };
  // The quiet services (under 0.01 ms per event in every run) would show only noise as a ratio.
  const processes = Object.keys(cur[0]?.maxCpuByProcess ?? {}).filter((name) =>
    [...cur, ...base].some((f) => (f.maxCpuByProcess[name] ?? 0) >= 0.01),
  );
  return [
    `| events API (${pairs.length} pairs) | ${baselineName} | this tree | this / ${baselineName}, run by run |`,
    '|---|---|---|---|',
    row('max rate, delivered events/s', (f) => f.maxRate, 0),
    row('max rate, CPU ms per event above idle', (f) => f.maxCpu, 2),
    ...processes.map((name) => row(`  of which ${name}`, (f) => f.maxCpuByProcess[name] ?? NaN, 2)),
    row('200/s, e2e p99 ms', (f) => f.fixedP99, 0),
    row('200/s, CPU ms per event above idle', (f) => f.fixedCpu, 2),
    row('200/s, wake-ups per event above idle', (f) => f.fixedWakeUps, 1),
    `| lost / duplicated / bad signatures | ${base.map((f) => `${f.lost}/${f.duplicates}/${f.badSignatures}`).join(', ')} | ${cur
      .map((f) => `${f.lost}/${f.duplicates}/${f.badSignatures}`)
      .join(', ')} | |`,
  ];
}
