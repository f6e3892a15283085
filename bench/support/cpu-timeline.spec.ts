import { CpuTimeline } from './cpu-timeline';

describe('CpuTimeline', () => {
  it("records each process's CPU used in each interval, by the time since it started", () => {
    const used = new Map([
      [11, 100],
      [22, 5_000],
    ]);
    let now = 1_000;
    const timeline = new CpuTimeline(
      new Map([
        ['kafka', 11],
        ['dispatcher', 22],
      ]),
      (pid) => used.get(pid)!,
      () => now,
    );
    timeline.start(60_000); // sampled by hand below
    now += 10;
    used.set(11, 110);
    timeline.sample();
    now += 10;
    used.set(22, 5_020);
    timeline.sample();
    expect(timeline.stop()).toEqual([
      { t: 10, cpuMs: [10, 0] },
      { t: 20, cpuMs: [0, 20] },
    ]);
    expect(timeline.lines()).toEqual([
      '# t kafka dispatcher (ms since the phase started; CPU ms of each process in the interval)',
      '10 10 0',
      '20 0 20',
    ]);
  });

  it('counts a process that exited as idle', () => {
    let reading = 50;
    let now = 0;
    const timeline = new CpuTimeline(
      new Map([['ingest', 7]]),
      () => reading,
      () => now,
    );
    timeline.start(60_000);
    now = 10;
    reading = NaN;
    timeline.sample();
    timeline.stop();
    expect(timeline.lines()[1]).toBe('10 0');
  });

  it('samples on its own at the interval until stopped', async () => {
    const timeline = new CpuTimeline(new Map([['self', process.pid]]));
    timeline.start(5);
    // Waits for the samples rather than a fixed time: a busy machine may delay the interval.
    while (timeline.lines().length <= 3) await new Promise((r) => setTimeout(r, 5));
    const samples = timeline.stop();
    expect(samples.length).toBeGreaterThanOrEqual(3);
    expect(samples.every((s) => s.cpuMs.length === 1 && s.cpuMs[0] >= 0)).toBe(true);
    const count = samples.length;
    await new Promise((r) => setTimeout(r, 30));
    expect(timeline.stop()).toHaveLength(count);
  });
});
