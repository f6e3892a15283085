/**
 * Tenant isolation (issue 67, docs/isolation.md): how much endpoints that hang, fail or answer
 * slowly slow the healthy ones. The six services run as their own processes on the local stack
 * (bench/support/hookrail-stack.ts); events are POSTed to the events API at a fixed rate spread evenly
 * over every endpoint of the phase (one event per endpoint in turn), each phase on a fresh project
 * (deleted after it, so its parked and retried deliveries do not load the next one). Retries are
 * linear, 5 s × 2, as in the issue. Prints per phase: healthy deliveries' e2e latency (POST sent →
 * received) p50/p99/max and p99 as a multiple of the baseline's at the same rate, the retry
 * scheduler's lateness p99 (from its histogram's buckets: an upper bound), how many of the host's
 * cores were busy (and how much of that was this bench's load and receivers), each process's CPU
 * (cores), how much of the phase its busiest thread ran and waited for a core, and its resident
 * memory (now and its peak), healthy deliveries not received, and how many
 * of each service's `/readyz` answers (asked once a second) were not ready; before
 * each phase, what the previous ones left in the dispatcher and the retry scheduler. The phase
 * `hang1000`, 1,000 hanging endpoints, is the memory check: it prints the dispatcher's peak
 * resident memory against its chart limit. The phase `retry1000` makes about 1,000 retries/s due
 * (half the traffic to endpoints answering 500, retried every second ten times, their circuit
 * breakers loosened) and prints their lateness as the failing receiver sees it: the gap between
 * two attempts of one delivery minus the policy's 1 s.
 *
 *   npm run bench:isolation
 *   BENCH_ISO_SECONDS=5 BENCH_ISO_PHASES=base150,mixed150 npm run bench:isolation   # a smoke run
 *   BENCH_MONGODB_URL='mongodb://127.0.0.1:27027/iso?retryWrites=false&directConnection=true' \
 *     BENCH_MONGODB_PID=$(pgrep -f 'MemoryMongo 27027') npm run bench:isolation  # bench/memory-mongo
 *   BENCH_DB_TAP=1 npm run bench:isolation   # also the services' database commands per second, by kind
 *   BENCH_DISPATCHERS=2 npm run bench:isolation   # dispatcher replicas (dispatcher-2, …; gauges: the first's)
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { monitorEventLoopDelay, PerformanceObserver, type Histogram } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { asProjectId, newId, type ProjectId } from '@hookrail/domain';
import { purgeProject } from '@hookrail/operations';
import type { Store } from '@hookrail/store';
import { makeEndpoint, makeSubscription, startReceiver, type Receiver } from '@hookrail/testkit';
import { freshBenchDatabase, startHookrailStack } from './support/hookrail-stack';
import { gcPauses, gcPausesBetween } from './support/gc-pauses';
import { MongoTap, perEventSummary } from './support/mongo-tap';
import { atFixedRate } from './support/load-shapes';
import { pct } from './support/percentile';
import { buildServices, busiestThread, cpuMs, peakRssMiB, threadTimes } from './support/processes';
import { machineBusyMs } from './support/machine-cpu';

const SECONDS = Number(process.env.BENCH_ISO_SECONDS ?? 30);
const ONLY = process.env.BENCH_ISO_PHASES?.split(',');
const HEALTHY = 20;
/** bench/support/hookrail-stack.ts's. */
const ADMIN_KEY = 'hr_admin.bench-admin-key-0123456789';
/** BENCH_MONGODB_URL's (with BENCH_MONGODB_PID for its CPU; bench/memory-mongo), else a new one on the local server. */
const OTHER_MONGODB_URL = process.env.BENCH_MONGODB_URL;
/** The relay adds a hop and this process's CPU to every database round trip: off by default. */
const DB_TAP = process.env.BENCH_DB_TAP === '1';
const DISPATCHERS = Number(process.env.BENCH_DISPATCHERS ?? 1);
const RETRIES = { type: 'linear', duration: 5, retry_count: 2 } as const;
/** A breaker that does not trip within a phase: the retry phase measures the scheduler, not it. */
const LOOSE_BREAKER = {
  min_requests: 1_000_000,
  failure_rate: 100,
  consecutive_failures: 1_000_000,
  probe_interval_seconds: 1,
  disable_after_seconds: 86_400,
};

type Kind = 'healthy' | 'hanging' | 'failing' | 'slow';
interface Phase {
  name: string;
  label: string;
  rate: number;
  /** The baseline phase whose p99 this one is compared with. */
  baseline: string;
  bad: { kind: Kind; count: number; httpTimeout?: number }[];
  /** The bad endpoints' retries, when not RETRIES; their circuit breakers are then loosened. */
  retries?: { type: 'linear'; duration: number; retry_count: number };
}
/** The dispatcher's memory limit in charts/hookrail/values.yaml. */
const DISPATCHER_LIMIT_MIB = 768;

const PHASES: Phase[] = [
  { name: 'base150', label: 'baseline', rate: 150, baseline: 'base150', bad: [] },
  {
    name: 'mixed150',
    label: '3 hanging + 3 answering 500 + 3 slow (2 s)',
    rate: 150,
    baseline: 'base150',
    bad: [
      { kind: 'hanging', count: 3 },
      { kind: 'failing', count: 3 },
      { kind: 'slow', count: 3 },
    ],
  },
  { name: 'base300', label: 'baseline', rate: 300, baseline: 'base300', bad: [] },
  {
    name: 'hang300',
    label: '10 hanging (a third)',
    rate: 300,
    baseline: 'base300',
    bad: [{ kind: 'hanging', count: 10 }],
  },
  {
    name: 'fail300',
    label: '20 answering 500 (half)',
    rate: 300,
    baseline: 'base300',
    bad: [{ kind: 'failing', count: 20 }],
  },
  {
    name: 'hang30s300',
    label: '10 hanging, http_timeout 30 s',
    rate: 300,
    baseline: 'base300',
    bad: [{ kind: 'hanging', count: 10, httpTimeout: 30 }],
  },
  {
    // Memory: each process's resident peak against its chart limit (dispatcher 768 MiB).
    name: 'hang1000',
    label: '1,000 hanging endpoints',
    rate: 300,
    baseline: 'base300',
    bad: [{ kind: 'hanging', count: 1000 }],
  },
  {
    // Retry lateness: 100 failing events/s, each retried every second ten times, make ~1,000/s due.
    name: 'retry1000',
    label: '20 answering 500, retried every 1 s x 10 (~1,000 retries/s due)',
    rate: 200,
    baseline: 'base300',
    bad: [{ kind: 'failing', count: 20 }],
    retries: { type: 'linear', duration: 1, retry_count: 10 },
  },
];

/**
 * The receivers of each kind; the healthy one records each event's first arrival, the failing one
 * every attempt's (for retry lateness).
 */
async function receivers(
  delivered: Map<string, number>,
  attempts: Map<string, number[]>,
): Promise<Record<Kind, Receiver>> {
  return {
    healthy: await startReceiver({
      countOnly: true,
      onRequest: (r) => {
        const id = r.headers['x-hookrail-event-id'];
        if (!delivered.has(id)) delivered.set(id, r.receivedAt);
      },
    }),
    hanging: await startReceiver({ countOnly: true, hang: true }),
    failing: await startReceiver({
      countOnly: true,
      onRequest: (r) => {
        const id = r.headers['x-hookrail-event-id'];
        attempts.set(id, [...(attempts.get(id) ?? []), r.receivedAt]);
      },
      respond: () => ({ status: 500, body: 'failing' }),
    }),
    slow: await startReceiver({ countOnly: true, delayMs: 2000 }),
  };
}

interface Stack {
  gateway: string;
  store: Store;
  rx: Record<Kind, Receiver>;
}

/** A fresh project through the API (for its key), its endpoints and one subscription each. */
async function newProject(stack: Stack, phase: Phase) {
  const created = (await fetch(`${stack.gateway}/api/v1/projects`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: `iso-${phase.name}-${newId()}`,
      type: 'incoming',
      ...(phase.retries && { config: { circuit_breaker: LOOSE_BREAKER } }),
    }),
  }).then((r) => r.json())) as { data: { uid: string; api_key: { key: string } } };
  const projectId = asProjectId(created.data.uid);
  const kinds = [{ kind: 'healthy' as Kind, count: HEALTHY }, ...phase.bad];
  const endpoints: { id: string; kind: Kind }[] = [];
  for (const { kind, count, httpTimeout } of kinds)
    for (let i = 0; i < count; i++) {
      const ep = await makeEndpoint(stack.store, projectId, {
        url: `${stack.rx[kind].url}/${kind}`,
        ...(httpTimeout && { http_timeout: httpTimeout }),
      });
      const retries = kind === 'healthy' ? RETRIES : (phase.retries ?? RETRIES);
      await makeSubscription(stack.store, projectId, { endpoint_id: ep._id, retry_config: retries });
      endpoints.push({ id: ep._id, kind });
    }
  return { projectId, apiKey: created.data.api_key.key, endpoints };
}

/**
 * POSTs one event to each endpoint in turn at the phase's rate; the healthy events' send times and
 * the failing ones' ids.
 */
async function offer(
  stack: Stack,
  phase: Phase,
  p: Awaited<ReturnType<typeof newProject>>,
  seconds = SECONDS,
) {
  const url = `${stack.gateway}/api/v1/projects/${p.projectId}/events`;
  const sentAt = new Map<string, number>();
  const failing: string[] = [];
  /** How long the API took to accept each healthy event: the share of e2e latency before Hookrail's pipeline. */
  const posts: number[] = [];
  let n = 0;
  let errors = 0;
  const post = async () => {
    const ep = p.endpoints[n++ % p.endpoints.length];
    const started = Date.now();
    const res = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${p.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ endpoint_id: ep.id, event_type: 'iso.event', data: { n } }),
    }).catch(() => null);
    if (!res || res.status >= 300) return void errors++;
    const id = ((await res.json()) as { data: { event_id?: string; uid?: string } }).data;
    const eventId = id.event_id ?? id.uid ?? '';
    if (ep.kind === 'healthy') {
      sentAt.set(eventId, started);
      posts.push(Date.now() - started);
    }
    if (ep.kind === 'failing') failing.push(eventId);
  };
  await atFixedRate(post, phase.rate, seconds);
  return { sentAt, failing, errors, posts: posts.sort((a, b) => a - b) };
}

/**
 * Retry lateness as the failing receiver saw it: each gap between two attempts of one event minus
 * the policy's wait (the scheduler's lateness plus the way through Kafka and the dispatcher), and
 * the most retries received in one second.
 */
function retryLateness(ids: string[], attempts: Map<string, number[]>, waitMs: number): string {
  const late: number[] = [];
  const perSecond = new Map<number, number>();
  for (const id of ids) {
    const at = attempts.get(id) ?? [];
    for (let i = 1; i < at.length; i++) {
      late.push(at[i] - at[i - 1] - waitMs);
      const second = Math.floor(at[i] / 1000);
      perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
    }
  }
  if (late.length === 0) return 'no retries received';
  late.sort((a, b) => a - b);
  return (
    `${late.length} retries received (at most ${Math.max(...perSecond.values())} in one second): ` +
    `lateness p50 ${pct(late, 50)} ms, p99 ${pct(late, 99)} ms, max ${late.at(-1)} ms`
  );
}

/** What a service holds now, summed from its metrics: lanes, deliveries waiting, consumer lag, queued retries. */
async function heldNow(url: string): Promise<Map<string, number>> {
  const text = await fetch(`${url}/metrics`)
    .then((r) => r.text())
    .catch(() => '');
  const sums = new Map<string, number>();
  const pattern =
    /^hookrail_(endpoint_lane_attempts|endpoint_lane_waiting|kafka_consumer_lag|retry_queued_entries)\{([^}]*)\} (\S+)$/gm;
  for (const [, name, labels, value] of text.matchAll(pattern)) {
    const label = /(?:lane|topic)="([^"]+)"/.exec(labels)?.[1];
    const key = `${name.replace('endpoint_lane_', '').replace('kafka_consumer_', '')}${label ? ` ${label}` : ''}`;
    sums.set(key, (sums.get(key) ?? 0) + Number(value));
  }
  return sums;
}

const described = (held: Map<string, number>) =>
  [...held].map(([k, v]) => `${k} ${v}`).join(', ') || 'no figures';

/** Attempts running, deliveries waiting in the lanes, and messages not finished by the dispatcher's consumers. */
async function inDispatcher(dispatcher: string): Promise<number> {
  const held = await heldNow(dispatcher);
  return [...held].reduce((n, [, v]) => n + v, 0);
}

/**
 * After a phase: deletes its project, waits until the dispatcher holds nothing (a hanging
 * endpoint's last attempts run out their time-out; deliveries waiting for their slots find the
 * project gone; its consumers catch up), at most a minute, then purges the project's data here, timed. Left to the retry scheduler's
 * housekeeping (every minute), that purge (tens of thousands of deletes on the shared database)
 * ran in the middle of a later phase.
 */
async function settle(run: Run, projectId: ProjectId): Promise<void> {
  const t0 = Date.now();
  await deleteProject(run.stack, projectId);
  while (Date.now() - t0 < 60_000 && (await inDispatcher(run.dispatcher)) > 0) await sleep(250);
  const t1 = Date.now();
  const documents = await purgeProject(run.stack.store, projectId, { pauseMs: 20 });
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  console.log(
    `  after: dispatcher idle in ${s(t1 - t0)}; ${documents} documents purged in ${s(Date.now() - t1)}`,
  );
}

/** A histogram's cumulative buckets (summed over its other labels), from a service's metrics. */
async function buckets(url: string, metric: string, labels = ''): Promise<Map<string, number>> {
  const text = await fetch(`${url}/metrics`).then((r) => r.text());
  const found = new Map<string, number>();
  for (const m of text.matchAll(new RegExp(`^${metric}_bucket\\{([^}]*)\\} (\\S+)$`, 'gm'))) {
    const le = /le="([^"]+)"/.exec(m[1])?.[1];
    if (le && m[1].includes(labels)) found.set(le, (found.get(le) ?? 0) + Number(m[2]));
  }
  return found;
}

/** The bucket bound (s) under which a share `q` of what the histogram counted between two reads was. */
function bucketBound(before: Map<string, number>, after: Map<string, number>, q: number): string | null {
  const deltas = [...after].map(([le, n]) => ({ le, n: n - (before.get(le) ?? 0) }));
  const total = deltas.find((d) => d.le === '+Inf')?.n ?? 0;
  return total === 0 ? null : (deltas.find((d) => d.n >= q * total)?.le ?? '+Inf');
}

const LATENESS = 'hookrail_retry_lateness_seconds';
const AGE = 'hookrail_bus_message_age_seconds';
/** The dispatcher's consumers: events (first sends) and deliveries (retries, parked deliveries). */
const DISPATCHER_TOPICS = ['events', 'deliveries'];

async function dispatcherAges(url: string): Promise<Map<string, number>[]> {
  return Promise.all(DISPATCHER_TOPICS.map((t) => buckets(url, AGE, `topic="${t}"`)));
}

/**
 * How long messages waited between their produce and the dispatcher's handler, by topic: the
 * share of e2e latency spent in Kafka and in the dispatcher's fetch loop.
 */
function agesLine(before: Map<string, number>[], after: Map<string, number>[]): string {
  const ms = (le: string | null) => (le === null ? '-' : le === '+Inf' ? 'more' : `${Number(le) * 1000}`);
  const parts = DISPATCHER_TOPICS.map((t, i) => {
    const p50 = bucketBound(before[i], after[i], 0.5);
    return p50 === null
      ? `${t} none`
      : `${t} p50 ≤ ${ms(p50)} ms, p99 ≤ ${ms(bucketBound(before[i], after[i], 0.99))} ms`;
  });
  return `produce → dispatcher's handler: ${parts.join('; ')}`;
}

const rssMiB = (pid: number) => {
  try {
    return Number(/^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;
  } catch {
    return NaN;
  }
};

/** Each process's CPU and each of its threads' times, so far. */
function processTimes(pids: Map<string, number>) {
  return new Map([...pids].map(([name, pid]) => [name, { cpu: cpuMs(pid), threads: threadTimes(pid) }]));
}

/**
 * Each process's CPU in cores over the phase; the shares of the phase its busiest thread (a
 * service's event loop, the database's worker) ran and waited for a core, runnable with none free
 * (together, how busy an event loop was; the wait is latency no change to the process removes);
 * its memory now and at its peak.
 */
function processFigures(
  pids: Map<string, number>,
  times0: ReturnType<typeof processTimes>,
  ms: number,
): string[] {
  const times = processTimes(pids);
  return [...pids].map(([name, pid]) => {
    const [t0, t] = [times0.get(name), times.get(name)!];
    const cores = (t.cpu - (t0?.cpu ?? 0)) / ms;
    const busiest = busiestThread(t0?.threads ?? new Map(), t.threads);
    const share = (spanMs: number) => `${((spanMs / ms) * 100).toFixed(0)} %`;
    const wait = busiest
      ? ` (busiest thread on a core ${share(busiest.ran)}, waiting for one ${share(busiest.waited)})`
      : '';
    return `    ${name.padEnd(16)} ${cores.toFixed(2)} cores${wait}, ${rssMiB(pid).toFixed(0)} MiB resident (peak ${peakRssMiB(pid).toFixed(0)} MiB)`;
  });
}

/** How often the bench's own event loop is sampled (ms). */
const LOOP_SAMPLE_MS = 5;

/**
 * This process's event-loop delay over the phase: the load generator and every receiver share its
 * loop, so a busy loop here delays the send and arrival times the phase measures. The histogram
 * holds the sampling timer's whole intervals: the delay is what exceeds the sampling period.
 */
function loopDelay(h: Histogram): string {
  const ms = (ns: number) => Math.max(0, ns / 1e6 - LOOP_SAMPLE_MS).toFixed(0);
  return `bench's own event-loop delay p50 ${ms(h.percentile(50))} ms, p99 ${ms(h.percentile(99))} ms, max ${ms(h.max)} ms`;
}

/** This process's own garbage collections over the phase: their pauses delay the times it measures too. */
function watchOwnGc(): { stop(): string } {
  const pauses: number[] = [];
  const observer = new PerformanceObserver((list) =>
    pauses.push(...list.getEntries().map((e) => e.duration)),
  );
  observer.observe({ entryTypes: ['gc'] });
  return {
    stop() {
      observer.disconnect();
      const longest = pauses.length ? Math.max(...pauses).toFixed(0) : '0';
      const heap = (process.memoryUsage().heapUsed / 2 ** 20).toFixed(0);
      return `${pauses.length} garbage collections of its own, ${pauses.filter((d) => d > 10).length} over 10 ms, the longest ${longest} ms (heap ${heap} MiB)`;
    },
  };
}

/**
 * How busy the whole host was over the phase, and how much of that was this process (the load,
 * the receivers): once the cores are all busy, every process waits for one, whatever its own load.
 */
function hostFigures(host0: { busy: number; bench: NodeJS.CpuUsage }, ms: number): string {
  const busy = (machineBusyMs() - host0.busy) / ms;
  const { user, system } = process.cpuUsage(host0.bench);
  const bench = (user + system) / 1000 / ms;
  return `  host: ${busy.toFixed(2)} of ${availableParallelism()} cores busy, of which this bench (load, receivers) ${bench.toFixed(2)}`;
}

async function deleteProject(stack: Stack, projectId: ProjectId): Promise<void> {
  const res = await fetch(`${stack.gateway}/api/v1/projects/${projectId}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${ADMIN_KEY}` },
  });
  if (!res.ok) console.warn(`  deleting the phase's project answered ${res.status}`);
}

async function waitDelivered(ids: string[], delivered: Map<string, number>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && ids.some((id) => !delivered.has(id)))
    await new Promise((r) => setTimeout(r, 100));
}

/** The chart's readiness probe waits this long for an answer (charts/hookrail values, `probes.readiness`). */
const READINESS_TIMEOUT_MS = 3000;

/**
 * Asks every service's `/readyz` once a second, as a kubelet's probe would (the chart's every 5 s),
 * until stopped, and then says how many answers were not a 200 within the probe's time-out: a busy
 * database must not read as an unreachable one (issue 67).
 */
function watchReadiness(services: { name: string; url: string }[]): { stop(): Promise<string> } {
  const notReady = new Map<string, number>();
  let checks = 0;
  let running = true;
  const probe = async ({ name, url }: { name: string; url: string }) => {
    const ok = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(READINESS_TIMEOUT_MS) }).then(
      (r) => r.ok,
      () => false,
    );
    if (!ok) notReady.set(name, (notReady.get(name) ?? 0) + 1);
  };
  const loop = (async () => {
    for (; running; checks++) await Promise.all([...services.map(probe), sleep(1000)]);
  })();
  return {
    async stop() {
      running = false;
      await loop;
      const failed = [...notReady].map(([name, n]) => `${name} ${n}`).join(', ');
      return `readiness: ${checks} checks of ${services.length} services, not ready ${failed || 'never'}`;
    },
  };
}

interface Run {
  stack: Stack;
  /** Every service, for the readiness checks. */
  services: { name: string; url: string }[];
  pids: Map<string, number>;
  dispatcher: string;
  scheduler: string;
  /** Failing endpoints' attempts by event: when each was received. */
  attempts: Map<string, number[]>;
  delivered: Map<string, number>;
  baselines: Map<string, number>;
  /** The baselines' p99 without their first second (afterFirstSecond). */
  laterBaselines: Map<string, number>;
  /** The services' database commands (BENCH_DB_TAP=1). */
  tap?: MongoTap;
}

async function runPhase(run: Run, phase: Phase): Promise<void> {
  const p = await newProject(run.stack, phase);
  console.log(`${phase.label} at ${phase.rate}/s for ${SECONDS} s (${p.endpoints.length} endpoints):`);
  console.log(
    `  left by earlier phases: dispatcher ${described(await heldNow(run.dispatcher))}; scheduler ${described(await heldNow(run.scheduler))}`,
  );
  const times0 = processTimes(run.pids);
  const host0 = { busy: machineBusyMs(), bench: process.cpuUsage() };
  const late0 = await buckets(run.scheduler, LATENESS);
  const ages0 = await dispatcherAges(run.dispatcher);
  const gc0 = await gcPauses(run.services);
  const db0 = run.tap?.snapshot();
  const t0 = Date.now();
  const readiness = watchReadiness(run.services);
  const benchLoop = monitorEventLoopDelay({ resolution: LOOP_SAMPLE_MS });
  benchLoop.enable();
  const benchGc = watchOwnGc();
  const { sentAt, failing, errors, posts } = await offer(run.stack, phase, p);
  const ids = [...sentAt.keys()];
  await waitDelivered(ids, run.delivered, 60_000);
  // The last failing events' retries are due up to retry_count x duration after them.
  const tail = phase.retries ? phase.retries.retry_count * phase.retries.duration + 2 : 0;
  await sleep(Math.max(0, t0 + (SECONDS + tail) * 1000 - Date.now()));
  const ms = Date.now() - t0;
  benchLoop.disable();
  const ready = await readiness.stop();
  const latencies = (sent: string[]) =>
    sent
      .filter((id) => run.delivered.has(id))
      .map((id) => run.delivered.get(id)! - sentAt.get(id)!)
      .sort((a, b) => a - b);
  const lat = latencies(ids);
  const p99 = pct(lat, 99);
  if (phase.baseline === phase.name) run.baselines.set(phase.name, p99);
  const base = run.baselines.get(phase.baseline);
  console.log(
    `  healthy p50 ${pct(lat, 50)} ms, p99 ${p99} ms, max ${lat.at(-1)} ms` +
      (base ? `; p99 ${(p99 / base).toFixed(1)}x the baseline's ${base} ms` : '') +
      `; not received ${ids.length - lat.length} of ${ids.length}, POST errors ${errors}` +
      `; of which the POST itself p50 ${pct(posts, 50)} ms, p99 ${pct(posts, 99)} ms`,
  );
  console.log(
    `  ${afterFirstSecond(
      run,
      phase,
      ids.map((id) => [id, sentAt.get(id)! - t0]),
      latencies,
    )}`,
  );
  const late = bucketBound(late0, await buckets(run.scheduler, LATENESS), 0.99);
  console.log(`  retry lateness p99 ${late === null ? 'no retries fired' : `≤ ${late} s`} (scheduler)`);
  console.log(`  ${agesLine(ages0, await dispatcherAges(run.dispatcher))}`);
  if (phase.retries)
    console.log(`  at the receiver: ${retryLateness(failing, run.attempts, phase.retries.duration * 1000)}`);
  console.log(`  ${ready}`);
  console.log(hostFigures(host0, ms));
  console.log(`  ${loopDelay(benchLoop)}; ${benchGc.stop()}`);
  console.log(processFigures(run.pids, times0, ms).join('\n'));
  console.log(
    `  garbage collections:\n${gcPausesBetween(gc0, await gcPauses(run.services))
      .map((l) => `    ${l}`)
      .join('\n')}`,
  );
  if (run.tap && db0)
    console.log(`  database commands per second: ${perEventSummary(db0, run.tap.snapshot(), ms / 1000)}`);
  const dispatcherPid = run.pids.get('dispatcher');
  if (phase.name === 'hang1000' && dispatcherPid)
    console.log(
      `  memory check: dispatcher peak ${peakRssMiB(dispatcherPid).toFixed(0)} MiB, chart limit ${DISPATCHER_LIMIT_MIB} MiB`,
    );
  await settle(run, p.projectId);
  // What a phase received is its own: kept, it would grow this process's heap phase after phase,
  // and its collections' pauses would delay the times later phases measure.
  run.delivered.clear();
  run.attempts.clear();
}

/**
 * The healthy figures without the events sent in the phase's first second, when its project, key
 * and endpoints are new to every cache and connection pool: the same in every phase, bad
 * endpoints or not, so that second's slowest deliveries often make a whole phase's p99 (a p99 of
 * a few thousand deliveries is its slowest few dozen).
 */
function afterFirstSecond(
  run: Run,
  phase: Phase,
  sentAfterMs: [string, number][],
  latencies: (ids: string[]) => number[],
): string {
  const first = latencies(sentAfterMs.filter(([, ms]) => ms < 1000).map(([id]) => id));
  const later = latencies(sentAfterMs.filter(([, ms]) => ms >= 1000).map(([id]) => id));
  const p99 = pct(later, 99);
  if (phase.baseline === phase.name) run.laterBaselines.set(phase.name, p99);
  const base = run.laterBaselines.get(phase.baseline);
  return (
    `after the first second: healthy p50 ${pct(later, 50)} ms, p99 ${p99} ms` +
    (base ? ` (${(p99 / base).toFixed(1)}x the baseline's ${base} ms)` : '') +
    `; in the first second p99 ${pct(first, 99)} ms`
  );
}

/** Unmeasured: the services' first deliveries open connections and warm their code. */
async function warmUp(run: Run): Promise<void> {
  const phase = { ...PHASES[0], name: 'warm-up' };
  const p = await newProject(run.stack, phase);
  const { sentAt } = await offer(run.stack, phase, p, 5);
  await waitDelivered([...sentAt.keys()], run.delivered, 60_000);
  await settle(run, p.projectId);
}

async function main(): Promise<void> {
  const delivered = new Map<string, number>();
  const attempts = new Map<string, number[]>();
  const rx = await receivers(delivered, attempts);
  buildServices();
  const mongoUrl = OTHER_MONGODB_URL ?? (await freshBenchDatabase('hookrail-iso'));
  const tap = DB_TAP ? await tapped(mongoUrl) : null;
  const stack = await startHookrailStack({
    mongoUrl,
    servicesDbUrl: tap?.url,
    firstPort: 18_600,
    dispatchers: DISPATCHERS,
  });
  const [gateway, dispatcher, scheduler] = ['api-gateway', 'dispatcher', 'retry-scheduler'].map(
    (name) => stack.services.find((s) => s.name === name)!.url,
  );
  const run: Run = {
    stack: { gateway, store: stack.store, rx },
    services: stack.services.map(({ name, url }) => ({ name, url })),
    pids: stack.pids,
    dispatcher,
    scheduler,
    attempts,
    delivered,
    baselines: new Map(),
    laterBaselines: new Map(),
    tap: tap?.tap,
  };
  await warmUp(run);
  for (const phase of PHASES.filter((ph) => !ONLY || ONLY.includes(ph.name))) {
    await runPhase(run, phase);
    await new Promise((r) => setTimeout(r, 5000)); // the deleted project's last sends end
  }
  // Another server's database is left to it (mongo-java-server cannot drop one with a multikey index).
  await stack.stop({ dropDatabase: !OTHER_MONGODB_URL });
  await Promise.all(Object.values(rx).map((r) => r.close()));
  await tap?.tap.close();
}

/** A relay counting the services' database commands, and the URL that goes through it. */
async function tapped(url: string): Promise<{ tap: MongoTap; url: string }> {
  const u = new URL(url);
  const tap = await MongoTap.start({ host: u.hostname, port: Number(u.port || 27017) });
  u.port = String(tap.port);
  // Else the driver follows the server's own address from its hello and bypasses the relay.
  u.searchParams.set('directConnection', 'true');
  return { tap, url: u.toString() };
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
