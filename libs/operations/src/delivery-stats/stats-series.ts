import { DELIVERY_OUTCOMES, type StatsWindowName } from '@hookrail/api-contract';
import type { DeliveryStatsDoc } from '@hookrail/store';
import { LATENCY_BUCKETS, estimateQuantile } from './latency-buckets';

export type OutcomeCounts = Record<(typeof DELIVERY_OUTCOMES)[number], number>;

export const STATS_WINDOWS = {
  hour: { minutes: 60, stepMinutes: 1 },
  day: { minutes: 1440, stepMinutes: 10 },
} as const satisfies Record<StatsWindowName, { minutes: number; stepMinutes: number }>;
export type StatsWindow = keyof typeof STATS_WINDOWS;

export interface StatsPoint {
  /** Start of the step. */
  at: Date;
  outcomes: OutcomeCounts;
  p50_ms: number | null;
  p95_ms: number | null;
}

export interface StatsSeries {
  from: Date;
  to: Date;
  stepMinutes: number;
  points: StatsPoint[];
  totals: OutcomeCounts;
  p50_ms: number | null;
  p95_ms: number | null;
}

/** The window ending with the current minute: [from, to) on minute boundaries. */
export function windowRange(window: StatsWindow, now: number): { from: Date; to: Date } {
  const to = Math.floor(now / 60_000) * 60_000 + 60_000;
  return { from: new Date(to - STATS_WINDOWS[window].minutes * 60_000), to: new Date(to) };
}

const zero = (): OutcomeCounts => ({ Success: 0, Retry: 0, Failure: 0, Discarded: 0 });
const histogramOf = (latency: Record<string, number> | undefined, into: number[]) => {
  for (const [i, n] of Object.entries(latency ?? {})) if (Number(i) < LATENCY_BUCKETS) into[Number(i)] += n;
};

/**
 * Sums per-minute counter documents into fixed steps over the window (a step without documents is
 * zero, so the chart's time axis is regular), with p50/p95 estimated from the summed histograms.
 */
export function buildSeries(
  docs: readonly Pick<DeliveryStatsDoc, 'minute' | 'outcomes' | 'latency'>[],
  window: StatsWindow,
  now: number,
): StatsSeries {
  const { from, to } = windowRange(window, now);
  const stepMs = STATS_WINDOWS[window].stepMinutes * 60_000;
  const steps = Math.round((to.getTime() - from.getTime()) / stepMs);
  const outcomes = Array.from({ length: steps }, zero);
  const histograms = Array.from({ length: steps }, () => new Array<number>(LATENCY_BUCKETS).fill(0));
  for (const d of docs) {
    const i = Math.floor((new Date(d.minute).getTime() - from.getTime()) / stepMs);
    if (i < 0 || i >= steps) continue;
    for (const k of DELIVERY_OUTCOMES) outcomes[i][k] += d.outcomes?.[k] ?? 0;
    histogramOf(d.latency, histograms[i]);
  }
  const totals = zero();
  const all = new Array<number>(LATENCY_BUCKETS).fill(0);
  outcomes.forEach((o, i) => {
    for (const k of DELIVERY_OUTCOMES) totals[k] += o[k];
    histograms[i].forEach((n, b) => (all[b] += n));
  });
  return {
    from,
    to,
    stepMinutes: STATS_WINDOWS[window].stepMinutes,
    points: outcomes.map((o, i) => ({
      at: new Date(from.getTime() + i * stepMs),
      outcomes: o,
      p50_ms: estimateQuantile(histograms[i], 0.5),
      p95_ms: estimateQuantile(histograms[i], 0.95),
    })),
    totals,
    p50_ms: estimateQuantile(all, 0.5),
    p95_ms: estimateQuantile(all, 0.95),
  };
}
