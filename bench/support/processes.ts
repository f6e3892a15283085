import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');
/**
 * The checkout whose services a bench runs: this one, or BENCH_SERVICES_FROM, another checkout
 * with its own node_modules (bench/compare.ts puts a baseline commit there). The bench itself (load,
 * receiver, meters) stays this tree's, so both are measured with one instrument.
 */
const servicesRoot = path.resolve(process.env.BENCH_SERVICES_FROM ?? root);
/**
 * Older trees bundled each service alone (tools/build-service.mjs → services/<name>/dist/main.js);
 * since the image carries one dist/, tools/build-services.mjs writes dist/<name>.js.
 */
const perServiceBundles = !existsSync(path.join(servicesRoot, 'tools/build-services.mjs'));
/** The node flags the services' tree runs them with in its image (none before it had the file). */
const nodeFlagsFile = path.join(servicesRoot, 'tools/node-flags.json');
const NODE_FLAGS: string[] = existsSync(nodeFlagsFile) ? JSON.parse(readFileSync(nodeFlagsFile, 'utf8')) : [];

/** What V8's CPU profiler costs a process at rest, in cores (0.044 measured on an idle process). */
const PROFILER_CORES = 0.05;

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** CPU time (user + system) a process has used so far, in ms; NaN once it is gone. */
export function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 (utime) and 15 (stime) of stat(5); the slice starts at field 3.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return NaN;
  }
}

/** A thread's time on a core and time waiting, runnable, for one, in ms. */
export interface ThreadTime {
  ran: number;
  waited: number;
}

/**
 * Each thread's times so far, by thread id (the first two fields of
 * /proc/<pid>/task/<tid>/schedstat); empty where the kernel does not keep them.
 */
export function threadTimes(pid: number): Map<string, ThreadTime> {
  const out = new Map<string, ThreadTime>();
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const [ran, waited] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ');
      out.set(tid, { ran: Number(ran) / 1e6, waited: Number(waited) / 1e6 });
    }
  } catch {
    // gone, or no schedstat: no figures
  }
  return out;
}

/**
 * Over a span: the thread that ran most (a service's event loop, the database's worker) and how
 * long it waited for a core meanwhile, in ms. Once the host's cores are all taken, that wait is
 * latency no change to the process itself removes.
 */
export function busiestThread(
  before: Map<string, ThreadTime>,
  after: Map<string, ThreadTime>,
): ThreadTime | null {
  let busiest: ThreadTime | null = null;
  for (const [tid, t] of after) {
    const t0 = before.get(tid) ?? { ran: 0, waited: 0 };
    const span = { ran: t.ran - t0.ran, waited: t.waited - t0.waited };
    if (!busiest || span.ran > busiest.ran) busiest = span;
  }
  return busiest;
}

/**
 * CPU time (user + system) of a server made of a process and its children (Postgres's postmaster
 * and its backends, RabbitMQ's VM and its helpers), in ms; NaN once it is gone. Children that
 * ended are counted through the parent's cutime/cstime (fields 16 and 17), so a backend that
 * exits mid-phase keeps its share.
 */
export function treeCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const own = fields.slice(11, 15).reduce((sum, f) => sum + Number(f), 0);
    let children = 0;
    for (const child of childPids(pid)) children += treeCpuMs(child) || 0;
    return (own * 1000) / TICKS_PER_SECOND + children;
  } catch {
    return NaN;
  }
}

/** The live children of a process, from /proc/<pid>/task/<tid>/children. */
function childPids(pid: number): number[] {
  const pids: number[] = [];
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const text = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim();
      if (text) pids.push(...text.split(' ').map(Number));
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return pids;
}

/**
 * How often a process's threads have blocked and been woken again so far (voluntary context
 * switches, summed over its live threads: /proc/<pid>/task/<tid>/status); NaN once it is gone. At
 * a low rate each event wakes each process it passes through, and on a virtual machine a wake-up
 * from idle costs more CPU than the work it wakes for (`npm run bench:wake`).
 */
export function wakeUps(pid: number): number {
  try {
    let sum = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const status = readFileSync(`/proc/${pid}/task/${tid}/status`, 'utf8');
      sum += Number(/^voluntary_ctxt_switches:\s+(\d+)$/m.exec(status)?.[1] ?? 0);
    }
    return sum;
  } catch {
    return NaN;
  }
}

/** The most memory a process has held resident so far (VmHWM), in MiB; NaN once it is gone. */
export function peakRssMiB(pid: number): number {
  try {
    const kb = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** The pid a local server recorded (deploy/local/servers.sh), if it runs. */
export function serverPid(name: string): number | null {
  try {
    const pid = Number(readFileSync(path.join(root, '.local/servers', name, 'pid'), 'utf8').trim());
    return Number.isFinite(pid) && !Number.isNaN(cpuMs(pid)) ? pid : null;
  } catch {
    return null;
  }
}

/**
 * The pids of the servers a bench charges: Kafka and the database, the local stack's, or for the
 * database BENCH_MONGODB_PID (the server behind BENCH_MONGODB_URL, when it is not the local one).
 */
export function serverPids(): Map<string, number> {
  const pids = new Map<string, number>();
  const kafka = serverPid('kafka');
  const mongodb = process.env.BENCH_MONGODB_PID
    ? Number(process.env.BENCH_MONGODB_PID)
    : serverPid('mongodb');
  if (kafka) pids.set('kafka', kafka);
  if (mongodb) pids.set('mongodb', mongodb);
  return pids;
}

export interface ServiceProcess {
  name: string;
  child: ChildProcess;
  url: string;
}

/**
 * Bundles the services as the image does (tools/build-services.mjs), so a bench measures the code
 * production runs: the same bundle under plain node, not the sources under a TypeScript loader
 * (tsx wraps every function it compiles with a naming helper; measured, that costs a tenth of a
 * service's CPU).
 */
export function buildServices(): void {
  const services = readdirSync(path.join(servicesRoot, 'services')).filter((name) =>
    existsSync(path.join(servicesRoot, 'services', name, 'src/main.ts')),
  );
  const script = perServiceBundles ? ['tools/build-service.mjs', ...services] : ['tools/build-services.mjs'];
  execFileSync(process.execPath, [path.join(servicesRoot, script[0]), ...script.slice(1)], {
    cwd: servicesRoot,
    stdio: 'inherit',
    // Profiles name the functions only when the bundles keep their identifiers.
    env: { ...process.env, ...(process.env.BENCH_PROFILE_DIR && { HOOKRAIL_BUNDLE_NAMES: '1' }) },
  });
}

/** Node's arguments to run a bundled script with the services' flags. */
export function nodeArgs(script: string): string[] {
  return [
    // BENCH_PROFILE_DIR: each process writes a V8 CPU profile there when it stops.
    ...(process.env.BENCH_PROFILE_DIR
      ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`]
      : []),
    ...NODE_FLAGS,
    script,
  ];
}

/** Node's arguments to run a service's bundle (buildServices first). */
export function serviceArgs(name: string): string[] {
  return nodeArgs(
    path.join(servicesRoot, perServiceBundles ? `services/${name}/dist/main.js` : `dist/${name}.js`),
  );
}

/** Children given to reapWithThisProcess and still running. */
const reaped = new Set<ChildProcess>();
let reaping = false;

/**
 * Ends `child` with this process: a bench stopped by SIGTERM (`timeout`) or ending on an error
 * before its stack's stop would otherwise leave its services running, polling Kafka and the
 * database and loading every later measurement on the host.
 */
export function reapWithThisProcess(child: ChildProcess): void {
  if (!reaping) {
    reaping = true;
    process.on('exit', () => reaped.forEach((c) => c.kill('SIGTERM')));
    // Node's default on SIGTERM exits without 'exit' listeners; exiting here runs them.
    process.once('SIGTERM', () => process.exit(143));
  }
  reaped.add(child);
  child.once('exit', () => reaped.delete(child));
}

/**
 * Starts a service's bundle (buildServices) as its own process, as in production, and waits until
 * /readyz answers 200.
 */
export async function startService(
  name: string,
  port: number,
  env: Record<string, string>,
  /** The service it runs, when `name` is a replica's (dispatcher-2). */
  service = name,
): Promise<ServiceProcess> {
  const child = spawn(process.execPath, serviceArgs(service), {
    cwd: servicesRoot,
    env: { ...process.env, ...env, HOOKRAIL_HTTP_PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  reapWithThisProcess(child);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`);
    const ok = await fetch(`${url}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return { name, child, url };
    if (Date.now() > deadline) throw new Error(`${name} not ready after 60 s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

export async function stopService(s: ServiceProcess): Promise<void> {
  if (s.child.exitCode !== null || s.child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    const hard = setTimeout(() => s.child.kill('SIGKILL'), 12_000);
    s.child.once('exit', () => (clearTimeout(hard), resolve()));
    s.child.kill('SIGTERM');
  });
}

export interface CpuPerEvent {
  name: string;
  msPerEvent: number;
  /** Less the process's rate at rest (measureIdle); not for the bench process itself. */
  aboveIdle?: number;
  /** Times the process was woken (wakeUps) per event, and less its rate at rest; not for the bench process. */
  wakeUps?: { perEvent: number; aboveIdle: number };
}

/** Lines `name  ms/event  (above idle ms/event)  wake-ups/event (above idle)`. */
export function formatPerEvent(rows: CpuPerEvent[]): string[] {
  return rows.map(
    ({ name, msPerEvent, aboveIdle, wakeUps }) =>
      `    ${name.padEnd(26)} ${msPerEvent.toFixed(3)} ms/event` +
      (aboveIdle === undefined ? '' : `  (above idle ${aboveIdle.toFixed(3)})`) +
      (wakeUps === undefined
        ? ''
        : `  ${wakeUps.perEvent.toFixed(1)} wake-ups/event (above idle ${wakeUps.aboveIdle.toFixed(1)})`),
  );
}

/** A process's CPU ms and wake-ups (wakeUps) so far. */
interface Reading {
  cpuMs: number;
  wakeUps: number;
}

function read(pid: number, tree = false): Reading {
  return { cpuMs: tree ? treeCpuMs(pid) : cpuMs(pid), wakeUps: wakeUps(pid) };
}

/**
 * CPU used by each watched process since `start()`, per delivered event, with and without its idle
 * rate; and the same for the times each process was woken.
 */
export class CpuMeter {
  private startReadings = new Map<string, Reading>();
  private startedAt = Date.now();
  private selfStart = process.cpuUsage();
  /** Each process's CPU ms and wake-ups per second at rest, measured by `measureIdle` (0 until then). */
  private idlePerSecond = new Map<string, Reading>();

  /**
   * `profiled`: how many of the processes run under V8's CPU profiler (BENCH_PROFILE_DIR), whose
   * sampling alone keeps each busy at rest (PROFILER_CORES). `trees`: the names whose process is
   * charged with its children (treeCpuMs). `totalLabel`: the name of the processes' total row.
   */
  constructor(
    private readonly pids: Map<string, number>,
    private readonly opts: { profiled?: number; trees?: ReadonlySet<string>; totalLabel?: string } = {},
  ) {}

  private read(name: string, pid: number): Reading {
    return read(pid, this.opts.trees?.has(name));
  }

  /**
   * Each process's CPU rate at rest, over `ms`: timers, heartbeats, fetch waits and the servers'
   * housekeeping, which a phase pays whatever its load. perEvent subtracts it as the performance
   * issue's harness does ("less the idle rate measured just before").
   */
  async measureIdle(ms = 5_000): Promise<void> {
    const before = new Map([...this.pids].map(([name, pid]) => [name, this.read(name, pid)]));
    const t0 = Date.now();
    await new Promise((r) => setTimeout(r, ms));
    const seconds = (Date.now() - t0) / 1000;
    for (const [name, pid] of this.pids) {
      const [now, then] = [this.read(name, pid), before.get(name)!];
      this.idlePerSecond.set(name, {
        cpuMs: Math.max(0, (now.cpuMs - then.cpuMs) / seconds),
        wakeUps: Math.max(0, (now.wakeUps - then.wakeUps) / seconds),
      });
    }
  }

  start(): void {
    this.selfStart = process.cpuUsage();
    this.startedAt = Date.now();
    for (const [name, pid] of this.pids) this.startReadings.set(name, this.read(name, pid));
  }

  /**
   * Waits until the measured processes are back at rest: together under `idleCores` of CPU over a
   * second (e.g. the database has written the records of a phase whose events were all delivered,
   * since records are written beside the deliveries, not before them). Profiled processes are
   * allowed their profiler's share on top, else a profiled stack never counts as at rest and each
   * phase waits `maxMs`. Returns the ms waited.
   */
  async settle(
    idleCores = 0.25 + PROFILER_CORES * (this.opts.profiled ?? 0),
    maxMs = 60_000,
  ): Promise<number> {
    const t0 = Date.now();
    let last = this.used();
    for (;;) {
      await new Promise((r) => setTimeout(r, 1000));
      const now = this.used();
      if (now - last < idleCores * 1000 || Date.now() - t0 > maxMs) return Date.now() - t0;
      last = now;
    }
  }

  /** CPU ms the measured processes have used so far, together. */
  private used(): number {
    let sum = 0;
    for (const [name, pid] of this.pids)
      sum += (this.opts.trees?.has(name) ? treeCpuMs(pid) : cpuMs(pid)) || 0;
    return sum;
  }

  /**
   * Each process's CPU and wake-ups per event since `start()`, and above its idle rates; then the stack's total
   * ("hookrail total"), and the bench process itself (load generator + receiver) last.
   */
  perEventFigures(events: number): CpuPerEvent[] {
    const seconds = (Date.now() - this.startedAt) / 1000;
    const rows: CpuPerEvent[] = [];
    let [total, totalAboveIdle, woken, wokenAboveIdle] = [0, 0, 0, 0];
    for (const [name, pid] of this.pids) {
      const [now, then] = [this.read(name, pid), this.startReadings.get(name) ?? { cpuMs: 0, wakeUps: 0 }];
      const idle = this.idlePerSecond.get(name) ?? { cpuMs: 0, wakeUps: 0 };
      const used = now.cpuMs - then.cpuMs;
      const aboveIdle = Math.max(0, used - idle.cpuMs * seconds);
      const wakes = now.wakeUps - then.wakeUps;
      const wakesAboveIdle = Math.max(0, wakes - idle.wakeUps * seconds);
      rows.push({
        name,
        msPerEvent: used / events,
        aboveIdle: aboveIdle / events,
        wakeUps: { perEvent: wakes / events, aboveIdle: wakesAboveIdle / events },
      });
      total += used;
      totalAboveIdle += aboveIdle;
      woken += wakes;
      wokenAboveIdle += wakesAboveIdle;
    }
    const self = process.cpuUsage(this.selfStart);
    rows.push({
      name: this.opts.totalLabel ?? 'hookrail total',
      msPerEvent: total / events,
      aboveIdle: totalAboveIdle / events,
      wakeUps: { perEvent: woken / events, aboveIdle: wokenAboveIdle / events },
    });
    rows.push({ name: 'load generator + receiver', msPerEvent: (self.user + self.system) / 1000 / events });
    return rows;
  }

  /** perEventFigures as lines (formatPerEvent). */
  perEvent(events: number): string[] {
    return formatPerEvent(this.perEventFigures(events));
  }

  /** Lines `name  ms/s  wake-ups/s` of each process's rates at rest (measureIdle). */
  idle(): string[] {
    const rows = [...this.idlePerSecond];
    const total = rows.reduce(
      (sum, [, r]) => ({ cpuMs: sum.cpuMs + r.cpuMs, wakeUps: sum.wakeUps + r.wakeUps }),
      {
        cpuMs: 0,
        wakeUps: 0,
      },
    );
    rows.push([this.opts.totalLabel ?? 'hookrail total', total]);
    return rows.map(
      ([name, r]) =>
        `    ${name.padEnd(26)} ${r.cpuMs.toFixed(1)} ms of CPU per second, woken ${r.wakeUps.toFixed(0)} times per second`,
    );
  }
}
