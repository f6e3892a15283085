import type { BenchPhase, BenchResult } from './bench-result';
import { apiFigures, compareTable, formatRange } from './compare-summary';

function phase(
  label: string,
  eventsPerSecond: number,
  p99: number,
  cpu: Record<string, number>,
  wakeUps = 10,
): BenchPhase {
  const total = Object.values(cpu).reduce((a, b) => a + b, 0);
  return {
    label,
    accepted: 1000,
    delivered: 1000,
    eventsPerSecond,
    latencyMs: { p50: 3, p95: p99 - 1, p99 },
    acceptedMs: { p50: 1, p99: 5 },
    cpuPerEvent: [
      ...Object.entries(cpu).map(([name, aboveIdle]) => ({ name, msPerEvent: aboveIdle + 0.1, aboveIdle })),
      {
        name: 'hookrail total',
        msPerEvent: total + 0.5,
        aboveIdle: total,
        wakeUps: { perEvent: wakeUps + 2, aboveIdle: wakeUps },
      },
      { name: 'load generator + receiver', msPerEvent: 0.2 },
    ],
  };
}

const run = (rate: number, dbCpu: number, p99: number, lost = 0, wakeUps = 10): BenchResult => ({
  phases: [
    phase('events API, max rate (N=20000, 64 connections)', rate, 900, {
      mongodb: dbCpu,
      dispatcher: 0.3,
      'meta-event': 0.002,
    }),
    phase('events API, fixed rate 200/s for 15 s', 199, p99, { mongodb: 1, dispatcher: 2 }, wakeUps),
  ],
  lost,
  duplicates: 0,
  badSignatures: 0,
  sendErrors: 0,
});

describe('compareTable', () => {
  it('takes the events-API phases: rate, CPU above idle by process, the fixed rate’s p99 and CPU', () => {
    expect(apiFigures(run(1200, 0.5, 12))).toEqual({
      maxRate: 1200,
      maxCpu: 0.802,
      maxCpuByProcess: { mongodb: 0.5, dispatcher: 0.3, 'meta-event': 0.002 },
      fixedP99: 12,
      fixedCpu: 3,
      fixedWakeUps: 10,
      lost: 0,
      duplicates: 0,
      badSignatures: 0,
    });
  });

  it('gives each tree’s range and the ratio of the runs made back to back', () => {
    const table = compareTable(
      [
        { current: run(1500, 0.5, 10, 0, 12), baseline: run(1000, 1.0, 20, 0, 16) },
        { current: run(1200, 0.6, 14, 0, 10), baseline: run(1000, 0.7, 30, 2, 10) },
      ],
      'base',
    );
    expect(table[0]).toBe('| events API (2 pairs) | base | this tree | this / base, run by run |');
    expect(table).toContain('| max rate, delivered events/s | 1,000 | 1,200–1,500 | 1.20–1.50× |');
    // 0.8/1.3 and 0.9/1.0: the ratio pairs runs, it is not the ratio of the ranges' ends
    expect(table).toContain('| max rate, CPU ms per event above idle | 1.00–1.30 | 0.80–0.90 | 0.62–0.90× |');
    expect(table).toContain('|   of which mongodb | 0.70–1.00 | 0.50–0.60 | 0.50–0.86× |');
    // a quiet service's ratio would be noise
    expect(table.some((line) => line.includes('meta-event'))).toBe(false);
    expect(table).toContain('| 200/s, e2e p99 ms | 20–30 | 10–14 | 0.47–0.50× |');
    expect(table).toContain('| 200/s, wake-ups per event above idle | 10.0–16.0 | 10.0–12.0 | 0.75–1.00× |');
    expect(table[table.length - 1]).toBe(
      '| lost / duplicated / bad signatures | 0/0/0, 2/0/0 | 0/0/0, 0/0/0 | |',
    );
  });

  it('gives no ratio where a baseline run was at or under its rate at rest', () => {
    const quietKafka = (kafka: number) => ({
      ...run(1000, 0.5, 10),
      phases: [
        phase('events API, max rate (N=20000, 64 connections)', 1000, 900, { mongodb: 0.5, kafka }),
        phase('events API, fixed rate 200/s for 15 s', 199, 10, { mongodb: 1 }),
      ],
    });
    const table = compareTable(
      [
        { current: quietKafka(0.02), baseline: quietKafka(0) },
        { current: quietKafka(0.01), baseline: quietKafka(0.03) },
      ],
      'base',
    );
    expect(table).toContain('|   of which kafka | 0.00–0.03 | 0.01–0.02 | — |');
    expect(table).toContain('|   of which mongodb | 0.50 | 0.50 | 1.00× |');
  });

  it('refuses a run without the events-API phases, naming what is missing', () => {
    const mixedOnly: BenchResult = { ...run(1, 1, 1), phases: [] };
    expect(() => apiFigures(mixedOnly)).toThrow(
      'the run has no events API max rate phase (was it run with BENCH_TRAFFIC=api?)',
    );
  });
});

describe('formatRange', () => {
  it('gives lo–hi in en-US digits, and one value when the runs agree to the digits shown', () => {
    expect(formatRange([1_500.2, 1_216.9], 0)).toBe('1,217–1,500');
    expect(formatRange([199.6, 200.3], 0)).toBe('200');
    expect(formatRange([0.5, 0.5], 2)).toBe('0.50');
  });
});
