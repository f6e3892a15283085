import { buildSeries, windowRange } from './stats-series';

const NOW = Date.parse('2026-11-23T12:34:56Z');
const minute = (iso: string) => new Date(iso);

describe('buildSeries', () => {
  it('covers the hour ending with the current minute in 60 one-minute steps', () => {
    const { from, to } = windowRange('hour', NOW);
    expect(from.toISOString()).toBe('2026-11-23T11:35:00.000Z');
    expect(to.toISOString()).toBe('2026-11-23T12:35:00.000Z');
    const s = buildSeries([], 'hour', NOW);
    expect(s.points).toHaveLength(60);
    expect(s.points[59].at.toISOString()).toBe('2026-11-23T12:34:00.000Z');
    expect(s.totals).toEqual({ Success: 0, Retry: 0, Failure: 0, Discarded: 0 });
    expect(s.p50_ms).toBeNull();
  });

  it('sums minutes into their steps and the totals, with percentiles from the histograms', () => {
    const s = buildSeries(
      [
        { minute: minute('2026-11-23T12:34:00Z'), outcomes: { Success: 3, Retry: 1 }, latency: { '2': 4 } },
        { minute: minute('2026-11-23T12:33:00Z'), outcomes: { Failure: 2 }, latency: { '5': 2 } },
        { minute: minute('2026-11-23T10:00:00Z'), outcomes: { Success: 9 }, latency: {} }, // outside
      ],
      'hour',
      NOW,
    );
    expect(s.points[59].outcomes).toEqual({ Success: 3, Retry: 1, Failure: 0, Discarded: 0 });
    expect(s.points[59].p50_ms).toBe(75);
    expect(s.points[58].outcomes.Failure).toBe(2);
    expect(s.totals).toEqual({ Success: 3, Retry: 1, Failure: 2, Discarded: 0 });
    expect(s.p50_ms).toBe(88);
    expect(s.p95_ms).toBe(925);
  });

  it('groups the day into 144 ten-minute steps', () => {
    const s = buildSeries(
      [
        { minute: minute('2026-11-23T12:31:00Z'), outcomes: { Success: 1 }, latency: {} },
        { minute: minute('2026-11-23T12:34:00Z'), outcomes: { Success: 2 }, latency: {} },
      ],
      'day',
      NOW,
    );
    expect(s.stepMinutes).toBe(10);
    expect(s.points).toHaveLength(144);
    expect(s.points[143].at.toISOString()).toBe('2026-11-23T12:25:00.000Z');
    expect(s.points[143].outcomes.Success).toBe(3);
  });
});
