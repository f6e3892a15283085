/**
 * The side-by-side bench's figures (bench/outpost-side-by-side.bench.ts) and the markdown it
 * prints for bench/RESULTS.md: each system's range over its rounds, and the ratios round by round.
 */
import type { CpuPerEvent } from './processes';

export interface PhaseFigures {
  accepted: number;
  delivered: number;
  /** Delivered events over the time from the phase's start to its last delivery. */
  perSecond: number;
  /** From the request being sent to the receiver getting the event. */
  p50Ms: number;
  p99Ms: number;
  /** The system's processes (each above its rate at rest), summed: CpuMeter's total row. */
  cpuMsPerEvent: number;
  /** The whole machine's busy CPU less the bench process's and the machine's rate at rest. */
  machineMsPerEvent: number;
  /** Each process's row, the total and the bench process (load generator + receiver). */
  processes: CpuPerEvent[];
}

export interface RoundFigures {
  system: string;
  max: PhaseFigures;
  fixed: PhaseFigures;
  lost: number;
  duplicates: number;
  badSignatures: number;
  sendErrors: number;
}

const fixed = (x: number, digits: number) => x.toFixed(digits);

/** `lo–hi` of the values (one value when they agree at that precision). */
export function range(values: number[], digits: number, unit = ''): string {
  const [lo, hi] = [Math.min(...values), Math.max(...values)];
  const [a, b] = [fixed(lo, digits), fixed(hi, digits)];
  return a === b ? `${a}${unit}` : `${a}–${b}${unit}`;
}

/** `a/b` per round, as `1.23×, 0.98×`. */
export function ratios(a: number[], b: number[]): string {
  return a.map((x, i) => `${(x / b[i]).toFixed(2)}×`).join(', ');
}

/** A system's row: its figures' ranges over its rounds. */
function systemRow(label: string, rounds: RoundFigures[]): string {
  const of = (f: (r: RoundFigures) => number) => rounds.map(f);
  const ms = (f: (r: RoundFigures) => number) => range(of(f), 0);
  const sum = (f: (r: RoundFigures) => number) => of(f).reduce((s, x) => s + x, 0);
  return [
    label,
    range(
      of((r) => r.max.perSecond),
      0,
    ),
    range(
      of((r) => r.max.cpuMsPerEvent),
      2,
    ),
    `${ms((r) => r.max.p50Ms)} / ${ms((r) => r.max.p99Ms)} ms`,
    `${ms((r) => r.fixed.p50Ms)} / ${ms((r) => r.fixed.p99Ms)} ms`,
    range(
      of((r) => r.fixed.cpuMsPerEvent),
      2,
    ),
    `${range(
      of((r) => r.max.machineMsPerEvent),
      2,
    )} / ${range(
      of((r) => r.fixed.machineMsPerEvent),
      2,
    )}`,
    `${sum((r) => r.lost)}/${sum((r) => r.duplicates)}/${sum((r) => r.badSignatures)}`,
  ].join(' | ');
}

/** The ratios row of `a` over `b`, round by round (rounds paired in order). */
function ratioRow(label: string, a: RoundFigures[], b: RoundFigures[]): string {
  const of = (rs: RoundFigures[], f: (r: RoundFigures) => number) => rs.map(f);
  const r = (f: (x: RoundFigures) => number) => ratios(of(a, f), of(b, f));
  return [
    label,
    r((x) => x.max.perSecond),
    r((x) => x.max.cpuMsPerEvent),
    `p99 ${r((x) => x.max.p99Ms)}`,
    `p99 ${r((x) => x.fixed.p99Ms)}`,
    r((x) => x.fixed.cpuMsPerEvent),
    `${r((x) => x.max.machineMsPerEvent)} / ${r((x) => x.fixed.machineMsPerEvent)}`,
    '',
  ].join(' | ');
}

/** The table for bench/RESULTS.md: both systems' ranges, then Hookrail / Outpost round by round. */
export function sideBySideTable(opts: {
  hookrail: { label: string; rounds: RoundFigures[] };
  outpost: { label: string; rounds: RoundFigures[] };
  maxEvents: number;
  rate: number;
}): string[] {
  const { hookrail, outpost, maxEvents, rate } = opts;
  const n = Math.min(hookrail.rounds.length, outpost.rounds.length);
  const k = `${Math.round(maxEvents / 1000)}k`;
  return [
    `| system (same host, ${n} rounds each, alternating) | delivered/s (${k}, max) | CPU ms/event (max) | e2e p50 / p99 at max | at ${rate}/s: e2e p50 / p99 | at ${rate}/s: CPU ms/event | whole machine CPU ms/event (max / ${rate}/s) | lost/dup/badsig |`,
    '|---|---|---|---|---|---|---|---|',
    `| ${systemRow(outpost.label, outpost.rounds)} |`,
    `| ${systemRow(hookrail.label, hookrail.rounds)} |`,
    `| ${ratioRow('ratios Hookrail / Outpost, round by round', hookrail.rounds.slice(0, n), outpost.rounds.slice(0, n))} |`,
  ];
}

/** One system's processes: CPU ms per event above each one's rate at rest, max / fixed rate, round by round. */
export function processTable(rounds: RoundFigures[], rate: number): string[] {
  const names = rounds[0]?.max.processes.map((p) => p.name) ?? [];
  const cell = (r: RoundFigures, name: string) => {
    const at = (f: PhaseFigures) => f.processes.find((p) => p.name === name);
    const fmt = (p?: CpuPerEvent) => (p ? (p.aboveIdle ?? p.msPerEvent).toFixed(3) : '-');
    return `${fmt(at(r.max))} / ${fmt(at(r.fixed))}`;
  };
  return [
    `| process (CPU ms/event above its rate at rest: max / ${rate}/s) | ${rounds.map((_, i) => `round ${i + 1}`).join(' | ')} |`,
    `|---|${rounds.map(() => '---').join('|')}|`,
    ...names.map((name) => `| ${name} | ${rounds.map((r) => cell(r, name)).join(' | ')} |`),
  ];
}
