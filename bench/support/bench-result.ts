import type { CpuPerEvent } from './processes';

/** What BENCH_JSON holds: one entry per phase, then the run's losses. */
export interface BenchResult {
  phases: BenchPhase[];
  lost: number;
  duplicates: number;
  badSignatures: number;
  sendErrors: number;
}

export interface BenchPhase {
  label: string;
  accepted: number;
  delivered: number;
  eventsPerSecond: number;
  /** From the request being sent to the receiver getting the event. */
  latencyMs: { p50: number; p95: number; p99: number };
  /** From the request being sent to its 2xx answer. */
  acceptedMs: { p50: number; p99: number };
  cpuPerEvent: CpuPerEvent[];
}
