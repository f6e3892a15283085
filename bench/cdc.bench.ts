/**
 * Database change streams end to end (issue 69): changes committed to a user's database become
 * signed webhooks through the six services, each its own process on the local servers, to a
 * keep-alive receiver in this process that verifies every signature. Per kind of database, two
 * phases, each started on a stack at rest:
 *  - max rate: BENCH_CDC_CHANGES inserts committed in batches of 100 as fast as the database takes
 *    them; changes/s from the first commit to the last delivery;
 *  - fixed rate: BENCH_CDC_RATE single-insert commits a second for BENCH_CDC_RATE_SECONDS; the added
 *    latency, from the insert's acknowledgement (committed) to the receiver getting its webhook.
 * Each phase prints each process's CPU per change (above its rate at rest too), the user's database
 * server included, then the lost, duplicated and badly signed counts.
 *
 *   npm run bench:cdc                                                  # 5,000 at max rate, 200/s for 20 s
 *   BENCH_CDC_CHANGES=300 BENCH_CDC_RATE_SECONDS=2 npm run bench:cdc   # a smoke run
 *   BENCH_CDC_DATABASES=postgres npm run bench:cdc                     # the kinds to run (CASES), in order
 */
import { makeSubscription, startReceiver, type RecordedRequest } from '@hookrail/testkit';
import { USER_MONGODB_URL, userDatabase } from '../services/source-consumer/src/testing/user-database';
import { userPostgres } from '../services/source-consumer/src/testing/user-postgres';
import { atFixedRate } from './support/load-shapes';
import { pct } from './support/percentile';
import { buildServices, CpuMeter, formatPerEvent, serverPid } from './support/processes';
import { createBenchProject, startHookrailStack, type HookrailStack } from './support/hookrail-stack';
import { hookrailSignatureOk } from './support/signed-receiver';

const CHANGES = Number(process.env.BENCH_CDC_CHANGES ?? 5000);
const RATE = Number(process.env.BENCH_CDC_RATE ?? 200);
const RATE_SECONDS = Number(process.env.BENCH_CDC_RATE_SECONDS ?? 20);
const BATCH = 100;
const SECRET = 'bench-secret';
const DATABASE = `hookrail-bench-cdc-${Date.now()}`;

/** A place in the user's database to write to, watched by one source. */
interface CdcTarget {
  /** The source's `db_change_stream` settings. */
  settings: Record<string, unknown>;
  /** Commits one insert per id (one batch, in order); resolves once the database acknowledged them. */
  insert(ids: string[]): Promise<void>;
  close(): Promise<void>;
}

/** One kind of user database: a fresh target, how a webhook names its change, the server's pid. */
interface CdcCase {
  open(): Promise<CdcTarget>;
  /** The id given to insert, read back from a delivered webhook's body. */
  idOf(body: Record<string, unknown>): string;
  /** The local server (deploy/local/servers.sh), whose CPU is charged as "user database". */
  server: string;
  /** The server's CPU is its process's and its children's. */
  tree?: boolean;
}

const mongodb: CdcCase = {
  server: 'mongodb-cdc',
  async open() {
    // A fresh database on the replica-set SecantusDB that npm start runs for this (27018).
    const user = await userDatabase(['orders']);
    const orders = user.db.collection<{ _id: string; total: number }>('orders');
    return {
      settings: {
        type: 'mongodb',
        connection_string: USER_MONGODB_URL,
        database: user.name,
        collections: ['orders'],
      },
      insert: async (ids) => void (await orders.insertMany(ids.map((_id) => ({ _id, total: 42 })))),
      close: () => user.drop(),
    };
  },
  idOf: (body) => String((body.document_key as { _id?: unknown } | undefined)?._id),
};

const postgres: CdcCase = {
  server: 'postgres',
  // Postgres serves each connection (the writer's, the slot's WAL sender) from a child process.
  tree: true,
  async open() {
    // A fresh database on the local cluster that npm start runs for this (5433, wal_level=logical).
    const user = await userPostgres('CREATE TABLE orders (id text PRIMARY KEY, total int)');
    const writer = await user.connect();
    let last: Promise<unknown> = Promise.resolve();
    return {
      settings: user.sourceSettings({ publication: 'hookrail_bench', tables: ['orders'] }),
      // One statement, so one transaction per batch, as insertMany is for MongoDB; one after the
      // other on the one connection (node-postgres no longer queues overlapping queries itself).
      insert: (ids) => {
        const done = last.then(() => writer.query('INSERT INTO orders SELECT unnest($1::text[]), 42', [ids]));
        last = done.catch(() => undefined);
        return done.then(() => undefined);
      },
      close: async () => {
        await writer.end();
        await user.drop();
      },
    };
  },
  idOf: (body) => String((body.row as { id?: unknown } | undefined)?.id),
};

/** The kinds of database measured; another kind is one more entry. */
const CASES: Record<string, CdcCase> = { mongodb, postgres };
const KINDS = (process.env.BENCH_CDC_DATABASES ?? Object.keys(CASES).join(',')).split(',');

/** What the receiver saw: each change's first arrival (ms epoch) by its id. */
interface Tally {
  delivered: Map<string, number>;
  duplicates: number;
  badSignatures: number;
}

async function startCdcReceiver(idOf: () => CdcCase['idOf']) {
  const tally: Tally = { delivered: new Map(), duplicates: 0, badSignatures: 0 };
  const signatureOk = hookrailSignatureOk(SECRET);
  const receiver = await startReceiver({
    countOnly: true,
    onRequest: (r: RecordedRequest) => {
      if (!signatureOk(r)) tally.badSignatures++;
      const id = idOf()(JSON.parse(r.body) as Record<string, unknown>);
      if (tally.delivered.has(id)) tally.duplicates++;
      else tally.delivered.set(id, r.receivedAt);
    },
  });
  return { receiver, tally };
}

/** A source on `target` created through the API (which checks the stream), routed to the bench's endpoint. */
async function createCdcSource(stack: HookrailStack, receiverUrl: string, target: CdcTarget): Promise<void> {
  const { projectId, apiKey, endpointId } = await createBenchProject(stack, `${receiverUrl}/cdc`, SECRET);
  const api = `${stack.services[0].url}/api/v1/projects/${projectId}/sources`;
  const res = await fetch(api, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench-cdc', type: 'db_change_stream', db_change_stream: target.settings }),
  });
  const source = (await res.json()) as { data: { uid: string } };
  if (res.status !== 201) throw new Error(`source create answered ${res.status}: ${JSON.stringify(source)}`);
  await makeSubscription(stack.store, projectId, { endpoint_id: endpointId, source_id: source.data.uid });
  for (const deadline = Date.now() + 60_000; ; await new Promise((r) => setTimeout(r, 250))) {
    const health = await stack.store.sourceHealth.find(projectId, source.data.uid);
    if (health?.state === 'consuming') return;
    if (Date.now() > deadline) throw new Error(`the source is not streaming: ${JSON.stringify(health)}`);
  }
}

const waitDelivered = async (tally: Tally, ids: string[], timeoutMs = 120_000) => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && ids.some((id) => !tally.delivered.has(id)))
    await new Promise((r) => setTimeout(r, 50));
};

/** One phase: `load` commits changes and records each id's commit time; prints the figures. */
async function phase(
  label: string,
  cpu: CpuMeter,
  tally: Tally,
  load: (committed: Map<string, number>) => Promise<void>,
): Promise<void> {
  await cpu.settle();
  await cpu.measureIdle();
  const committed = new Map<string, number>();
  cpu.start();
  const t0 = Date.now();
  await load(committed);
  const ids = [...committed.keys()];
  await waitDelivered(tally, ids);
  const got = ids.filter((id) => tally.delivered.has(id));
  const end = Math.max(...got.map((id) => tally.delivered.get(id)!));
  await cpu.settle();
  const lat = got.map((id) => tally.delivered.get(id)! - committed.get(id)!).sort((a, b) => a - b);
  console.log(
    `${label}: ${ids.length} committed, ${(got.length / ((end - t0) / 1000)).toFixed(0)} changes/s delivered, ` +
      `commit → received p50 ${pct(lat, 50)} ms, p95 ${pct(lat, 95)} ms, p99 ${pct(lat, 99)} ms, ` +
      `not yet delivered ${ids.length - got.length}`,
  );
  console.log(`  CPU at rest, measured over 5 s before the phase:\n${cpu.idle().join('\n')}`);
  console.log(
    `  CPU per delivered change (until the stack is at rest again):\n${formatPerEvent(cpu.perEventFigures(Math.max(1, got.length))).join('\n')}`,
  );
}

/** Batches of BATCH inserts, one after another, as fast as the database acknowledges them. */
const atMax = (target: CdcTarget, tag: string) => async (committed: Map<string, number>) => {
  for (let i = 0; i < CHANGES; i += BATCH) {
    const ids = Array.from({ length: Math.min(BATCH, CHANGES - i) }, (_, j) => `${tag}-${i + j}`);
    await target.insert(ids);
    const at = Date.now();
    for (const id of ids) committed.set(id, at);
  }
};

/** RATE single inserts a second, each on its schedule. */
const atRate = (target: CdcTarget, tag: string) => async (committed: Map<string, number>) => {
  let n = 0;
  await atFixedRate(
    async () => {
      const id = `${tag}-${n++}`;
      await target.insert([id]);
      committed.set(id, Date.now());
    },
    RATE,
    RATE_SECONDS,
  );
};

async function runCase(kind: string, stack: HookrailStack, tally: Tally, receiverUrl: string) {
  const c = CASES[kind];
  if (!c) throw new Error(`no bench case for ${kind} (known: ${Object.keys(CASES).join(', ')})`);
  const target = await c.open();
  try {
    await createCdcSource(stack, receiverUrl, target);
    const pids = new Map(stack.pids);
    const userDb = serverPid(c.server);
    if (userDb) pids.set(`user database (${c.server})`, userDb);
    const cpu = new CpuMeter(pids, c.tree ? { trees: new Set([`user database (${c.server})`]) } : {});
    await phase(
      `${kind}, max rate (N=${CHANGES}, batches of ${BATCH})`,
      cpu,
      tally,
      atMax(target, `${kind}-max`),
    );
    await phase(
      `${kind}, fixed rate ${RATE}/s for ${RATE_SECONDS} s`,
      cpu,
      tally,
      atRate(target, `${kind}-rate`),
    );
  } finally {
    await target.close();
  }
}

async function main(): Promise<void> {
  let current: CdcCase['idOf'] = () => '';
  const { receiver, tally } = await startCdcReceiver(() => current);
  buildServices();
  const stack = await startHookrailStack({
    mongoUrl: `mongodb://127.0.0.1:27017/${DATABASE}?retryWrites=false`,
    // The user's database runs on this machine's loopback.
    env: { HOOKRAIL_ALLOW_PRIVATE_BROKERS: 'true' },
  });
  try {
    for (const kind of KINDS) {
      current = CASES[kind]?.idOf ?? current;
      await runCase(kind, stack, tally, receiver.url);
    }
  } finally {
    await stack.stop({ dropDatabase: true });
    await receiver.close();
  }
  console.log(
    `duplicates ${tally.duplicates}, bad signatures ${tally.badSignatures}, receiver requests ${receiver.count()}`,
  );
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
