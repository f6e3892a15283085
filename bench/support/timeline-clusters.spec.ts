import { CpuTimeline } from './cpu-timeline';
import { parseCpu, parseTimeline, slowClusters } from './timeline-clusters';

describe('timeline clusters', () => {
  const timeline = [
    '# t0 1764600000000',
    'e1 0 2 4',
    'e2 5 7 30', // slow
    'e3 60 90 95', // slow, 55 ms after e2: same cluster
    'e4 70 72 74',
    'e5 400 402 430', // slow, alone
    'e6 500 - -', // never accepted: left out
  ].join('\n');
  const cpuFile = [
    '# t kafka api-gateway (ms since the phase started; CPU ms of each process in the interval)',
    '0 0 10',
    '10 10 10',
    '20 0 10',
    '60 0 10',
    '400 10 0',
  ].join('\n');

  it('reads the events with all three times and the CPU columns', () => {
    expect(parseTimeline(timeline)).toHaveLength(5);
    expect(parseCpu(cpuFile)).toEqual({
      names: ['kafka', 'api-gateway'],
      rows: [
        [0, 0, 10],
        [10, 10, 10],
        [20, 0, 10],
        [60, 0, 10],
        [400, 10, 0],
      ],
    });
  });

  it("groups slow events close in time and gives each process's CPU over the group", () => {
    const clusters = slowClusters(parseTimeline(timeline), parseCpu(cpuFile), 15);
    expect(clusters).toEqual([
      {
        from: 5,
        to: 60,
        events: 2,
        worstMs: 35,
        worstAcceptMs: 30,
        // rows 0–60 over 50 ms before the first plus 55 ms: 105 ms
        cpuMsPerSecond: { kafka: Math.round(10 / 0.105), 'api-gateway': Math.round(40 / 0.105) },
      },
      {
        from: 400,
        to: 400,
        events: 1,
        worstMs: 30,
        worstAcceptMs: 2,
        cpuMsPerSecond: { kafka: 200, 'api-gateway': 0 },
      },
    ]);
  });

  it('reads what CpuTimeline writes', () => {
    let now = 0;
    const timeline = new CpuTimeline(
      new Map([
        ['kafka', 1],
        ['api-gateway', 2],
      ]),
      (pid) => now * pid,
      () => now,
    );
    timeline.start(60_000);
    now = 10;
    timeline.sample();
    timeline.stop();
    expect(parseCpu(timeline.lines().join('\n') + '\n')).toEqual({
      names: ['kafka', 'api-gateway'],
      rows: [[10, 10, 20]],
    });
  });

  it('finds nothing when no event is slower than the bound', () => {
    expect(slowClusters(parseTimeline(timeline), parseCpu(cpuFile), 100)).toEqual([]);
  });
});
