import {
  processTable,
  range,
  ratios,
  sideBySideTable,
  type PhaseFigures,
  type RoundFigures,
} from './side-by-side-table';

const phase = (perSecond: number, cpu: number, p99Ms: number, gateway: number): PhaseFigures => ({
  accepted: 100,
  delivered: 100,
  perSecond,
  p50Ms: p99Ms / 2,
  p99Ms,
  cpuMsPerEvent: cpu,
  machineMsPerEvent: cpu + 0.1,
  processes: [{ name: 'api-gateway', msPerEvent: gateway + 0.01, aboveIdle: gateway }],
});
const roundOf = (system: string, perSecond: number, cpu: number): RoundFigures => ({
  system,
  max: phase(perSecond, cpu, 400, 0.3),
  fixed: phase(199, cpu * 2, 20, 0.6),
  lost: 0,
  duplicates: 1,
  badSignatures: 0,
  sendErrors: 0,
});

describe('range and ratios', () => {
  it('give lo–hi, or one value when the rounds agree at the precision shown', () => {
    expect(range([1.234, 1.1, 1.3], 2)).toBe('1.10–1.30');
    expect(range([2.001, 2.004], 2, ' ms')).toBe('2.00 ms');
  });

  it('divide round by round, in order', () => {
    expect(ratios([100, 300], [200, 200])).toBe('0.50×, 1.50×');
  });
});

describe('sideBySideTable', () => {
  it("prints both systems' ranges, their losses summed, then Hookrail / Outpost per round", () => {
    const lines = sideBySideTable({
      hookrail: { label: 'Hookrail abc', rounds: [roundOf('h', 1000, 1.5), roundOf('h', 1100, 1.2)] },
      outpost: { label: 'Outpost f67', rounds: [roundOf('o', 1400, 1.0), roundOf('o', 1500, 1.2)] },
      maxEvents: 20_000,
      rate: 200,
    });
    expect(lines[0]).toMatch(
      /^\| system \(same host, 2 rounds each, alternating\) \| delivered\/s \(20k, max\) \|/,
    );
    expect(lines[2]).toBe(
      '| Outpost f67 | 1400–1500 | 1.00–1.20 | 200 / 400 ms | 10 / 20 ms | 2.00–2.40 | 1.10–1.30 / 2.10–2.50 | 0/2/0 |',
    );
    expect(lines[4]).toBe(
      '| ratios Hookrail / Outpost, round by round | 0.71×, 0.73× | 1.50×, 1.00× | p99 1.00×, 1.00× | p99 1.00×, 1.00× | 1.50×, 1.00× | 1.45×, 1.00× / 1.48×, 1.00× |  |',
    );
  });
});

describe('processTable', () => {
  it("lists each process's CPU above its rate at rest, at max / at the fixed rate, one column a round", () => {
    const lines = processTable([roundOf('h', 1000, 1.5), roundOf('h', 1000, 1.5)], 200);
    expect(lines[0]).toBe(
      '| process (CPU ms/event above its rate at rest: max / 200/s) | round 1 | round 2 |',
    );
    expect(lines[2]).toBe('| api-gateway | 0.300 / 0.600 | 0.300 / 0.600 |');
  });
});
