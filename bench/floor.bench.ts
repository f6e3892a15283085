/**
 * How much of the gateway and the dispatcher is Hookrail's own work: the same pipeline (events
 * POSTed to the events API at 64 connections → Kafka → signed and POSTed to a keep-alive receiver,
 * two documents written per event) run alternately by Hookrail's api-gateway and dispatcher
 * bundles and by a floor made of the design card's packages alone (bench/floor/). Each run sends a
 * warm-up of 3,000 events, then BENCH_FLOOR_EVENTS at max rate, then BENCH_FLOOR_RATE events/s for
 * BENCH_FLOOR_RATE_SECONDS. Each phase is charged from a stack at rest until it is at rest again,
 * less each process's rate at rest. Prints, per phase, delivered events/s and CPU ms per event of
 * each process and of the stack, ranges over BENCH_FLOOR_RUNS runs of each.
 *
 *   npm run bench:floor
 *   BENCH_FLOOR_INDEXES=store npm run bench:floor       # the floor writes under libs/store's indexes
 *   BENCH_SERVICES_FROM=../other npm run bench:floor    # another checkout's services against the floor
 *   BENCH_MONGODB_URL='mongodb://127.0.0.1:27027/?directConnection=true' \
 *     BENCH_MONGODB_PID=$(pgrep -f 'MemoryMongo 27027') npm run bench:floor   # bench/memory-mongo
 */
import http from 'node:http';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { build } from 'esbuild';
import mongoose from 'mongoose';
import {
  callApi,
  createEndpoint,
  deleteTopicsWithPrefix,
  startReceiver,
  testBus,
  uniquePrefix,
  waitFor,
} from '@hookrail/testkit';
import { formatRange } from './support/compare-summary';
import { atFixedRate, atMaxRate } from './support/load-shapes';
import {
  buildServices,
  CpuMeter,
  nodeArgs,
  serverPids,
  startService,
  stopService,
  type ServiceProcess,
} from './support/processes';

const EVENTS = Number(process.env.BENCH_FLOOR_EVENTS ?? 12_000);
const WARM_UP = 3_000;
const RATE = Number(process.env.BENCH_FLOOR_RATE ?? 200);
const RATE_SECONDS = Number(process.env.BENCH_FLOOR_RATE_SECONDS ?? 15);
const RUNS = Number(process.env.BENCH_FLOOR_RUNS ?? 3);
/** `store`: the floor writes under every index of libs/store, journaled (bench/floor/floor-dispatcher.ts). */
const FLOOR_INDEXES = process.env.BENCH_FLOOR_INDEXES ?? 'minimal';
const CONCURRENCY = 64;
const ADMIN_KEY = 'hr_admin.bench-admin-key-0123456789';
const root = path.resolve(__dirname, '..');
const outdir = path.join(root, '.local/bench-floor');
/** A database per system (named by its topic prefix), on the local server or BENCH_MONGODB_URL's. */
const mongodbUrl = (name: string): string => {
  const url = new URL(process.env.BENCH_MONGODB_URL ?? 'mongodb://127.0.0.1:27017/?retryWrites=false');
  url.pathname = `/${name}`;
  return url.toString();
};

/** One system under test: where to POST events, and the processes its CPU is charged to. */
interface System {
  name: string;
  eventsUrl: string;
  apiKey: string;
  endpointId: string;
  pids: Map<string, number>;
  stop(): Promise<void>;
}

type Figures = { rate: number; msPerEvent: Map<string, number> };

async function main(): Promise<void> {
  buildServices();
  await build({
    entryPoints: ['floor-gateway', 'floor-dispatcher'].map((f) => path.join(root, 'bench/floor', `${f}.ts`)),
    outdir,
    bundle: true,
    platform: 'node',
    target: 'node24',
    // The packages under measurement load from node_modules, as the services' bundles carry them.
    external: ['express', 'kafkajs', 'mongoose'],
    logLevel: 'warning',
  });
  const receiver = await startReceiver({ countOnly: true });
  const target = `${receiver.url}/hook`;
  const servers = serverPids();
  const systems: System[] = [];
  try {
    systems.push(await startHookrail(target, servers), await startFloor(target, servers));
    const figures = new Map<string, Record<PhaseKey, Figures>[]>(systems.map((s) => [s.name, []]));
    for (let run = 0; run < RUNS; run++) {
      const order = run % 2 === 0 ? systems : [...systems].reverse();
      for (const system of order) {
        const f = await runOnce(system, () => receiver.count());
        figures.get(system.name)!.push(f);
        console.log(
          `run ${run + 1}/${RUNS}, ${system.name}: ${PHASES.map(({ key }) => `${f[key].rate.toFixed(0)} events/s`).join(', ')}`,
        );
      }
    }
    for (const { label, key } of PHASES) {
      const byPhase = new Map([...figures].map(([name, runs]) => [name, runs.map((r) => r[key])]));
      console.log(`\n${label}\n${table(byPhase, [...servers.keys()]).join('\n')}`);
    }
  } finally {
    for (const s of systems) await s.stop();
    await receiver.close();
  }
}

async function startHookrail(target: string, servers: Map<string, number>): Promise<System> {
  const prefix = uniquePrefix('bench-hookrail');
  const env = {
    HOOKRAIL_KAFKA_TOPIC_PREFIX: prefix,
    HOOKRAIL_LOG_LEVEL: 'warn',
    HOOKRAIL_MONGODB_URL: mongodbUrl(prefix),
    HOOKRAIL_ADMIN_KEY: ADMIN_KEY,
    HOOKRAIL_ALLOW_PRIVATE_TARGETS: 'true',
  };
  const services: ServiceProcess[] = [];
  for (const [i, name] of ['api-gateway', 'dispatcher'].entries())
    services.push(await startService(name, 18_600 + i, env));
  const api = `${services[0].url}/api`;
  const project = await callApi<{ uid: string; api_key: { key: string } }>(
    api,
    ADMIN_KEY,
    'POST',
    '/v1/projects',
    {
      name: `floor-${prefix}`,
      type: 'outgoing',
    },
  );
  const endpoint = await createEndpoint(api, project.api_key.key, `/v1/projects/${project.uid}`, {
    name: 'receiver',
    url: target,
  });
  return {
    name: 'hookrail',
    eventsUrl: `${api}/v1/projects/${project.uid}/events`,
    apiKey: project.api_key.key,
    endpointId: endpoint.uid,
    pids: new Map([...services.map((s) => [s.name, s.child.pid!] as const), ...servers]),
    stop: async () => {
      for (const s of services.reverse()) await stopService(s);
      await removeData(prefix);
    },
  };
}

async function startFloor(target: string, servers: Map<string, number>): Promise<System> {
  const prefix = uniquePrefix('bench-floor');
  const bus = testBus(prefix);
  await bus.ensureTopics();
  await bus.close();
  const port = 18_610;
  const children = new Map<string, ChildProcess>([
    ['api-gateway', spawnFloor('floor-gateway', [String(port), prefix])],
    ['dispatcher', spawnFloor('floor-dispatcher', [prefix, target, mongodbUrl(prefix), FLOOR_INDEXES])],
  ]);
  await waitFor('the floor gateway', () =>
    fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.ok,
      () => false,
    ),
  );
  return {
    name: 'floor',
    eventsUrl: `http://127.0.0.1:${port}/api/v1/projects/floor/events`,
    apiKey: 'none',
    endpointId: 'receiver',
    pids: new Map([...[...children].map(([name, c]) => [name, c.pid!] as const), ...servers]),
    stop: async () => {
      for (const c of children.values()) {
        const exited = new Promise((r) => c.once('exit', r));
        c.kill('SIGTERM');
        await exited;
      }
      await removeData(prefix);
    },
  };
}

/** A system's topics and database (both named by its prefix), once its processes are gone. */
async function removeData(prefix: string): Promise<void> {
  await deleteTopicsWithPrefix(prefix);
  const connection = await mongoose.createConnection(mongodbUrl(prefix)).asPromise();
  await connection.dropDatabase();
  await connection.close();
}

function spawnFloor(script: string, args: string[]): ChildProcess {
  return spawn(process.execPath, [...nodeArgs(path.join(outdir, `${script}.js`)), ...args], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** The two phases of a run, as the performance issue measures the events API; `send` posts one event. */
const PHASES = [
  {
    label: `max rate (${EVENTS} events, ${CONCURRENCY} connections)`,
    key: 'max',
    load: (send: () => Promise<void>) => atMaxRate(send, EVENTS, CONCURRENCY),
  },
  {
    label: `${RATE} events/s for ${RATE_SECONDS} s`,
    key: 'fixed',
    load: (send: () => Promise<void>) => atFixedRate(send, RATE, RATE_SECONDS),
  },
] as const;
type PhaseKey = (typeof PHASES)[number]['key'];

/**
 * Sends the warm-up, then each phase. A phase is charged from a stack at rest until it is at rest
 * again (both dispatchers write an event's records after delivering it, so the database may still
 * be writing them at the last delivery), less each process's rate at rest measured just before.
 */
async function runOnce(system: System, delivered: () => number): Promise<Record<PhaseKey, Figures>> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  let sequence = 0;
  const post = () =>
    new Promise<void>((resolve, reject) => {
      const n = sequence++;
      const body = JSON.stringify({
        endpoint_id: system.endpointId,
        event_type: 'bench.event',
        data: { n, type: 'bench.event', data: { amount: n % 1000, tags: ['a', 'b'] } },
      });
      const req = http.request(
        system.eventsUrl,
        {
          method: 'POST',
          agent,
          headers: {
            authorization: `Bearer ${system.apiKey}`,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          res.resume();
          res.on('end', () =>
            res.statusCode === 201
              ? resolve()
              : reject(new Error(`${system.name} answered ${res.statusCode}`)),
          );
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  /** Runs `load`, waits for its deliveries, and returns the delivered rate and CPU per event. */
  const phase = async (load: () => Promise<unknown>, cpu?: CpuMeter): Promise<Figures> => {
    const [before, first, t0] = [delivered(), sequence, Date.now()];
    await load();
    const events = sequence - first;
    await waitFor(`${system.name}: every event delivered`, () => delivered() >= before + events, {
      timeoutMs: 300_000,
      intervalMs: 20,
    });
    const seconds = (Date.now() - t0) / 1000;
    await cpu?.settle();
    const rows = cpu?.perEventFigures(events) ?? [];
    return {
      rate: events / seconds,
      msPerEvent: new Map(rows.map((row) => [row.name, row.aboveIdle ?? NaN])),
    };
  };
  await phase(() => atMaxRate(post, WARM_UP, CONCURRENCY));
  const figures = {} as Record<PhaseKey, Figures>;
  for (const { key, load } of PHASES) {
    const cpu = new CpuMeter(system.pids);
    await cpu.settle();
    await cpu.measureIdle();
    cpu.start();
    figures[key] = await phase(() => load(post), cpu);
  }
  agent.destroy();
  return figures;
}

/** Each system's ranges over its runs: delivered events/s, then CPU ms per event above idle by process and in all. */
function table(figures: Map<string, Figures[]>, servers: string[]): string[] {
  const columns = ['api-gateway', 'dispatcher', ...servers];
  const stack = (r: Figures) => columns.reduce((sum, c) => sum + (r.msPerEvent.get(c) ?? NaN), 0);
  return [
    `| ${RUNS} runs | events/s | ${columns.map((c) => `${c} ms/event`).join(' | ')} | stack ms/event |`,
    `|---|---|${columns.map(() => '---|').join('')}---|`,
    ...[...figures].map(
      ([name, runs]) =>
        `| ${name} | ${formatRange(
          runs.map((r) => r.rate),
          0,
        )} | ${columns
          .map((c) =>
            formatRange(
              runs.map((r) => r.msPerEvent.get(c) ?? NaN),
              3,
            ),
          )
          .join(' | ')} | ${formatRange(runs.map(stack), 3)} |`,
    ),
  ];
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
