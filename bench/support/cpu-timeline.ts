import { cpuMs } from './processes';

/** CPU ms each process used in one interval, `t` ms after the timeline started. */
export interface CpuSample {
  t: number;
  cpuMs: number[];
}

/**
 * Each process's CPU sampled at a fixed interval while a phase runs (BENCH_TIMELINE), to line up
 * with the events' own times: which process was busy while a cluster of slow events waited. The
 * kernel counts CPU time in ticks of 10 ms, so a sample holds 0, 10, 20… ms per process.
 */
export class CpuTimeline {
  private samples: CpuSample[] = [];
  private last: number[] = [];
  private startedAt = 0;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly pids: Map<string, number>,
    private readonly read: (pid: number) => number = cpuMs,
    private readonly now: () => number = Date.now,
  ) {}

  start(everyMs = 10): void {
    this.samples = [];
    this.startedAt = this.now();
    this.last = this.readAll();
    this.timer = setInterval(() => this.sample(), everyMs);
  }

  /** Stops sampling; the samples so far. */
  stop(): CpuSample[] {
    clearInterval(this.timer);
    return this.samples;
  }

  /** One sample now (the interval calls it; tests call it directly). */
  sample(): void {
    const used = this.readAll();
    // A process that exited reads NaN: its interval counts as 0.
    const cpu = used.map((ms, i) => Math.max(0, ms - this.last[i]) || 0);
    this.samples.push({ t: this.now() - this.startedAt, cpuMs: cpu });
    this.last = used;
  }

  /** A header naming the columns, then one line per sample: `t ms ms …`. */
  lines(): string[] {
    return [
      `# t ${[...this.pids.keys()].join(' ')} (ms since the phase started; CPU ms of each process in the interval)`,
      ...this.samples.map((s) => [s.t, ...s.cpuMs].join(' ')),
    ];
  }

  private readAll(): number[] {
    return [...this.pids.values()].map((pid) => this.read(pid));
  }
}
