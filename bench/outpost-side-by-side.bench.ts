/**
 * Hookrail and Hookdeck Outpost side by side, on one host with one instrument (the performance
 * issue's shape): events API only, one endpoint with one subscription, 64 connections, a
 * keep-alive receiver in this process verifying every signature (Hookrail's `x-hookrail-signature`,
 * Outpost's `x-outpost-signature: v0=<hex HMAC-SHA256>`). Per system and round: BENCH_MAX_EVENTS
 * at max rate, then BENCH_RATE_EVENTS at BENCH_RATE/s. The systems run alternately, BENCH_PAIRS
 * pairs, each freshly started (Hookrail: its six services on a new database and topic prefix;
 * Outpost: its process, a Redis of its own and a new Postgres database migrated) and stopped after.
 *
 * Where each figure comes from (printed again with the table):
 *  - delivered/s: events delivered in the phase / (last delivery − phase start);
 *  - e2e p50/p99: accepted request sent → request received by the receiver;
 *  - CPU ms/event: each of the system's processes from /proc (Hookrail: six services, Kafka and
 *    the database; Outpost: outpost-server, its Redis, Postgres with its backends, RabbitMQ with
 *    its helpers), each less its own rate at rest measured over 5 s before the phase, from the
 *    phase's start until the processes are at rest again; for Outpost, only after its log service
 *    has written every delivery attempt to Postgres (batches every 10 s or 1,000 entries);
 *  - whole machine CPU ms/event: /proc/stat's busy time over the same span, less this process
 *    (load generator + receiver) and the machine's rate at rest: the method, only
 *    meaningful on an otherwise quiet host;
 *  - lost: accepted and not delivered after a BENCH_DRAIN_SECONDS drain; dup: delivered twice;
 *    badsig: a signature that does not verify.
 *
 *   bash bench/outpost/setup.sh build <outpost snapshot git dir> && bash bench/outpost/setup.sh servers
 *   OUTPOST_BIN_DIR=.local/outpost/bin npm run bench:peers
 *   OUTPOST_BIN_DIR=… BENCH_PAIRS=1 BENCH_MAX_EVENTS=2000 BENCH_RATE_EVENTS=300 npm run bench:peers   # a smoke run
 *   npm run bench:peers -- --outpost-bin-dir /path/to/bin
 *   BENCH_MONGODB_URL='mongodb://127.0.0.1:27027/peers?retryWrites=false&directConnection=true' \
 *     BENCH_MONGODB_PID=$(pgrep -f 'MemoryMongo 27027') OUTPOST_BIN_DIR=… npm run bench:peers
 *     # Hookrail on a database that costs almost nothing per event (bench/memory-mongo): what the
 *     # rest of its stack costs beside Outpost's, not a figure for the table
 */
import http from 'node:http';
import { execFileSync } from 'node:child_process';
import { makeSubscription } from '@hookrail/testkit';
import { CpuMeter, buildServices, formatPerEvent } from './support/processes';
import { createBenchProject, freshBenchDatabase, startHookrailStack } from './support/hookrail-stack';
import { atFixedRate, atMaxRate } from './support/load-shapes';
import { machineBusyMs } from './support/machine-cpu';
import { createOutpostDestination, startOutpost } from './support/outpost-system';
import { pct } from './support/percentile';
import { postJson } from './support/post-json';
import {
  hookrailSignatureOk,
  outpostSignatureOk,
  startSignedReceiver,
  type DeliveryTally,
} from './support/signed-receiver';
import {
  processTable,
  sideBySideTable,
  type PhaseFigures,
  type RoundFigures,
} from './support/side-by-side-table';

const PAIRS = Number(process.env.BENCH_PAIRS ?? 3);
const MAX_EVENTS = Number(process.env.BENCH_MAX_EVENTS ?? 20_000);
const RATE = Number(process.env.BENCH_RATE ?? 200);
const RATE_EVENTS = Number(process.env.BENCH_RATE_EVENTS ?? 3_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);
const DRAIN_SECONDS = Number(process.env.BENCH_DRAIN_SECONDS ?? 120);
const flag = process.argv.indexOf('--outpost-bin-dir');
const OUTPOST_BIN_DIR = flag > 0 ? process.argv[flag + 1] : process.env.OUTPOST_BIN_DIR;
const SECRET = 'bench-secret-side-by-side';
/** Another MongoDB-protocol server (BENCH_MONGODB_PID for its CPU); mongo-java-server cannot drop a database. */
const OTHER_MONGODB_URL = process.env.BENCH_MONGODB_URL;

/** A system freshly started for one round, as the phases drive and measure it. */
interface RunningSystem {
  name: string;
  pids: Map<string, number>;
  trees?: ReadonlySet<string>;
  tally: DeliveryTally;
  /** Sends one event; resolves with its id once accepted, null if refused. */
  post(): Promise<string | null>;
  /** Waits until the records written after delivery are written (Outpost's log batches). */
  settleRecords(delivered: number): Promise<void>;
  stop(): Promise<void>;
}

/** The stop of the system running now, for an interrupted run (no stray processes). */
let stopCurrent: (() => Promise<void>) | null = null;

const eventData = (n: number) => ({ n, type: 'bench.event', data: { amount: n % 1000, tags: ['a', 'b'] } });

/** A new database for a round: on the local server (dropped after), or on BENCH_MONGODB_URL's (kept). */
async function roundDatabase(): Promise<string> {
  if (!OTHER_MONGODB_URL) return freshBenchDatabase('hookrail-peers');
  const url = new URL(OTHER_MONGODB_URL);
  url.pathname = `/hookrail-peers-${Date.now()}`;
  return url.toString();
}

async function startHookrail(): Promise<RunningSystem> {
  const { receiver, tally } = await startSignedReceiver({
    idHeader: 'x-hookrail-event-id',
    signatureOk: hookrailSignatureOk(SECRET),
  });
  const stack = await startHookrailStack({ mongoUrl: await roundDatabase() });
  const stopStack = () => stack.stop({ dropDatabase: !OTHER_MONGODB_URL });
  stopCurrent = stopStack;
  const { projectId, apiKey, endpointId } = await createBenchProject(stack, `${receiver.url}/bench`, SECRET);
  await makeSubscription(stack.store, projectId, { endpoint_id: endpointId });
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const url = new URL(`${stack.services[0].url}/api/v1/projects/${projectId}/events`);
  let n = 0;
  return {
    name: 'hookrail',
    pids: stack.pids,
    tally,
    post: async () => {
      const body = { endpoint_id: endpointId, event_type: 'bench.event', data: eventData(n++) };
      const res = await postJson(agent, url, body, { authorization: `Bearer ${apiKey}` });
      if (res.status !== 200 && res.status !== 201) return refused('Hookrail', res);
      const data = (JSON.parse(res.text) as { data: { event_id?: string; uid?: string } }).data;
      return data.event_id ?? data.uid ?? null;
    },
    settleRecords: async () => {},
    stop: async () => {
      agent.destroy();
      await stopStack();
      await receiver.close();
    },
  };
}

async function startOutpostSystem(binDir: string): Promise<RunningSystem> {
  const { receiver, tally } = await startSignedReceiver({
    idHeader: 'x-outpost-event-id',
    signatureOk: outpostSignatureOk(SECRET),
  });
  const outpost = await startOutpost(binDir);
  stopCurrent = () => outpost.stop();
  await createOutpostDestination(outpost, 'bench', `${receiver.url}/bench`, SECRET);
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const url = new URL(`${outpost.apiUrl}/publish`);
  let n = 0;
  return {
    name: `Outpost ${outpost.commit}`,
    pids: outpost.pids,
    trees: outpost.trees,
    tally,
    post: async () => {
      const body = { tenant_id: 'bench', topic: 'bench.event', data: eventData(n++) };
      const res = await postJson(agent, url, body, { authorization: `Bearer ${outpost.apiKey}` });
      if (res.status !== 202 && res.status !== 200) return refused('Outpost', res);
      return (JSON.parse(res.text) as { id?: string }).id ?? null;
    },
    settleRecords: async (delivered) => {
      const deadline = Date.now() + 60_000;
      while (outpost.loggedAttempts() < delivered && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 1000));
    },
    stop: async () => {
      agent.destroy();
      await outpost.stop();
      await receiver.close();
    },
  };
}

let refusals = 0;
function refused(system: string, res: { status: number; text: string }): null {
  if (refusals++ === 0) console.error(`${system} answered ${res.status}: ${res.text.slice(0, 200)}`);
  return null;
}

async function waitDelivered(tally: DeliveryTally, ids: string[], ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline && ids.some((id) => !tally.delivered.has(id)))
    await new Promise((r) => setTimeout(r, 50));
}

/** Sends with `load`, recording each accepted event's send time; returns the accepted ids. */
async function sendAll(
  sys: RunningSystem,
  sentAt: Map<string, number>,
  load: (send: () => Promise<void>) => Promise<void>,
): Promise<string[]> {
  const ids: string[] = [];
  await load(async () => {
    const t = Date.now();
    const id = await sys.post();
    if (!id) return;
    sentAt.set(id, t);
    ids.push(id);
  });
  return ids;
}

/** The machine's busy CPU ms per ms over 5 s, measured beside CpuMeter.measureIdle. */
async function measureIdle(cpu: CpuMeter): Promise<number> {
  const [m0, t0] = [machineBusyMs(), Date.now()];
  await cpu.measureIdle();
  return (machineBusyMs() - m0) / (Date.now() - t0);
}

async function phase(
  sys: RunningSystem,
  label: string,
  sentAt: Map<string, number>,
  load: (send: () => Promise<void>) => Promise<void>,
): Promise<PhaseFigures> {
  const cpu = new CpuMeter(sys.pids, { trees: sys.trees, totalLabel: `${sys.name} total` });
  await cpu.settle();
  const machineIdle = await measureIdle(cpu);
  cpu.start();
  const [t0, machine0] = [Date.now(), machineBusyMs()];
  const ids = await sendAll(sys, sentAt, load);
  await waitDelivered(sys.tally, ids, 120_000);
  const got = ids.filter((id) => sys.tally.delivered.has(id));
  const end = Math.max(...got.map((id) => sys.tally.delivered.get(id)!));
  await sys.settleRecords(sys.tally.delivered.size);
  await cpu.settle();
  const processes = cpu.perEventFigures(Math.max(1, got.length));
  const self = processes[processes.length - 1].msPerEvent * got.length;
  const machine = machineBusyMs() - machine0 - self - machineIdle * (Date.now() - t0);
  const lat = got.map((id) => sys.tally.delivered.get(id)! - sentAt.get(id)!).sort((a, b) => a - b);
  const figures: PhaseFigures = {
    accepted: ids.length,
    delivered: got.length,
    perSecond: got.length / ((end - t0) / 1000),
    p50Ms: pct(lat, 50),
    p99Ms: pct(lat, 99),
    cpuMsPerEvent: processes[processes.length - 2].aboveIdle ?? NaN,
    machineMsPerEvent: machine / Math.max(1, got.length),
    processes,
  };
  report(sys, label, figures, cpu);
  return figures;
}

function report(sys: RunningSystem, label: string, f: PhaseFigures, cpu: CpuMeter): void {
  console.log(
    `${sys.name}, ${label}: ${f.accepted} accepted, ${f.delivered} delivered, ${f.perSecond.toFixed(0)}/s, ` +
      `e2e p50 ${f.p50Ms} ms, p99 ${f.p99Ms} ms; CPU ${f.cpuMsPerEvent.toFixed(3)} ms/event (processes), ` +
      `${f.machineMsPerEvent.toFixed(3)} ms/event (whole machine)`,
  );
  console.log(`  at rest, over 5 s before the phase:\n${cpu.idle().join('\n')}`);
  console.log(`  CPU per delivered event:\n${formatPerEvent(f.processes).join('\n')}`);
}

async function round(start: () => Promise<RunningSystem>): Promise<RoundFigures> {
  const sys = await start();
  stopCurrent = () => sys.stop();
  try {
    const sentAt = new Map<string, number>();
    const max = await phase(
      sys,
      `max rate, ${MAX_EVENTS} events, ${CONCURRENCY} connections`,
      sentAt,
      (send) => atMaxRate(send, MAX_EVENTS, CONCURRENCY),
    );
    const fixed = await phase(sys, `${RATE}/s, ${RATE_EVENTS} events`, sentAt, (send) =>
      atFixedRate(send, RATE, RATE_EVENTS / RATE),
    );
    const all = [...sentAt.keys()];
    await waitDelivered(sys.tally, all, DRAIN_SECONDS * 1000);
    const lost = all.filter((id) => !sys.tally.delivered.has(id)).length;
    const { duplicates, badSignatures } = sys.tally;
    console.log(`${sys.name}: lost ${lost}, duplicates ${duplicates}, bad signatures ${badSignatures}`);
    const sendErrors = MAX_EVENTS + RATE_EVENTS - all.length;
    return { system: sys.name, max, fixed, lost, duplicates, badSignatures, sendErrors };
  } finally {
    await sys.stop();
    stopCurrent = null;
  }
}

/** The commit measured, marked when the working tree differs from it. */
function gitHead(): string {
  const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  const changed = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {
    encoding: 'utf8',
  });
  return changed.trim() ? `${head} with uncommitted changes` : head;
}

async function main(): Promise<void> {
  if (!OUTPOST_BIN_DIR) throw new Error('OUTPOST_BIN_DIR (or --outpost-bin-dir) names the Outpost binaries');
  process.once('SIGINT', () => void (stopCurrent?.() ?? Promise.resolve()).finally(() => process.exit(130)));
  buildServices();
  const rounds: { hookrail: RoundFigures[]; outpost: RoundFigures[] } = { hookrail: [], outpost: [] };
  for (let i = 0; i < PAIRS; i++) {
    console.log(`\n== pair ${i + 1} of ${PAIRS}`);
    rounds.hookrail.push(await round(startHookrail));
    rounds.outpost.push(await round(() => startOutpostSystem(OUTPOST_BIN_DIR)));
  }
  const outpostName = rounds.outpost[0].system;
  const table = sideBySideTable({
    hookrail: { label: `Hookrail ${gitHead()}`, rounds: rounds.hookrail },
    outpost: {
      label: `Hookdeck ${outpostName} (Go; Redis, RabbitMQ, Postgres; concurrency 100)`,
      rounds: rounds.outpost,
    },
    maxEvents: MAX_EVENTS,
    rate: RATE,
  });
  const processes = [rounds.hookrail, rounds.outpost].map((r) => processTable(r, RATE).join('\n'));
  console.log(`\n${table.join('\n')}\n\n${processes.join('\n\n')}`);
  const errors = [...rounds.hookrail, ...rounds.outpost].reduce((s, r) => s + r.sendErrors, 0);
  if (errors) console.log(`\n${errors} events were refused or failed to send (not counted as lost)`);
}

main().then(
  () => process.exit(0),
  async (err: unknown) => {
    console.error(err);
    await stopCurrent?.().catch(() => {});
    process.exit(1);
  },
);
