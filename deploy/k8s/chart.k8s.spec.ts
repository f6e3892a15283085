import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import mongoose from 'mongoose';
import { SERVICE_NAMES } from '@hookrail/config';
import { Store } from '@hookrail/store';
import {
  callApi,
  createEndpoint,
  type CreatedEndpoint,
  listAllPages,
  localStackPath,
  startReceiver,
  waitFor,
  type Receiver,
} from '@hookrail/testkit';
import { verifySimple } from '../../docs/verify/verify';
import { podMemory } from './testing/pod-memory';
import { burst, SteadyLoad, type LoadReport } from './testing/steady-load';

/**
 * The chart on a real single-node Kubernetes (deploy/k8s/test-env.sh brings up the cluster, Kafka
 * and the MongoDB-protocol server on the node's address, and loads the image): install, helm test,
 * deliveries through the NodePorts, a backlog that every pod must take inside its memory limit, then
 * scaling, a rolling upgrade and pod kills under a steady load, none of which may lose an accepted
 * event, and an uninstall that leaves nothing behind.
 */
const run = promisify(execFile);
const root = path.resolve(__dirname, '../..');
const NODE_IP = process.env.HOOKRAIL_K8S_NODE_IP ?? '10.250.0.2';
// The host end of the node's veth: pods reach the test's receiver there.
const HOST_IP = process.env.HOOKRAIL_K8S_HOST_IP ?? '10.250.0.1';
const GATEWAY = `http://${NODE_IP}:30080`;
const RELEASE = 'hr';
const SERVICES: readonly string[] = SERVICE_NAMES;
const deployment = (service: string) => `${RELEASE}-hookrail-${service}`;
const LOAD_PER_SECOND = 20;
/** The kubelet's cgroup root (deploy/k8s/cluster.sh): pods' cgroups are under it on this host. */
const CGROUP_ROOT = 'hookrail-k8s';
/** A backlog three times the dispatcher's in-flight bound (2,000 events messages). */
const BACKLOG_EVENTS = 6_000;

jest.setTimeout(600_000);

const helmBin = localStackPath('HELM_BIN');
const env = { ...process.env, KUBECONFIG: path.join(root, '.local/k8s/kubeconfig') };
const exec = async (cmd: string, args: string[], timeoutMs = 300_000) =>
  (await run(cmd, args, { env, timeout: timeoutMs, maxBuffer: 32 * 1024 * 1024 })).stdout;
const kubectl = (...args: string[]) =>
  exec('bash', [path.join(root, 'deploy/k8s/cluster.sh'), 'kubectl', ...args]);
const helm = (...args: string[]) => exec(helmBin ?? 'helm', args, 600_000);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const adminKey = `hr_admin.${randomBytes(24).toString('base64url')}`;
// The same on every install and upgrade: it seals the endpoints' secrets.
const encryptionKey = randomBytes(32).toString('hex');
/** The previous release's tree (deploy/docker/build-previous.sh extracts it and builds its image). */
const PREVIOUS = path.join(root, '.local/previous-release');
const installArgs = (tag: string, tree = root) => [
  RELEASE,
  path.join(tree, 'charts/hookrail'),
  '-f',
  path.join(tree, 'charts/hookrail/ci/single-node-values.yaml'),
  '--set',
  `image.tag=${tag}`,
  '--set',
  `secrets.adminKey=${adminKey}`,
  '--set',
  `secrets.encryptionKey=${encryptionKey}`,
  '--wait',
  '--timeout',
  '6m',
];
/** Events the previous release takes before the upgrade: half through the events API, half through the source. */
const PREVIOUS_EVENTS = 400;
/** The database a change stream source watches: the second MongoDB-protocol server (test-env.sh). */
const USER_DB = `mongodb://${NODE_IP}:27018/?replicaSet=secantus`;

const api = <T>(key: string, method: string, route: string, body?: unknown) =>
  callApi<T>(`${GATEWAY}/api`, key, method, route, body);

const figures: Record<string, unknown> = {};
let receiver: Receiver;
let projectKey: string;
let p: string;
/** Events API events go to `apiEndpoint` (no subscription: its catch-all one), source events to `sourceEndpoint`. */
let apiEndpoint: CreatedEndpoint;
let sourceEndpoint: CreatedEndpoint;
let sourceUrl: string;
let sourceId: string;
/** What helm install printed: its NOTES end it. */
let installOutput = '';

const endpointAt = (name: string) =>
  createEndpoint(`${GATEWAY}/api`, projectKey, p, {
    name,
    url: `${receiver.url}/${name}`,
    owner_id: 'customer-1',
  });

/** Even events through the events API, odd ones through the HTTP source (ingest). */
async function sendOne(marker: string, seq: number): Promise<true | string> {
  const viaSource = seq % 2 === 1;
  const res = await fetch(viaSource ? sourceUrl : `${GATEWAY}/api${p}/events`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(viaSource ? {} : { authorization: `Bearer ${projectKey}` }),
    },
    body: JSON.stringify(
      viaSource ? { marker } : { endpoint_id: apiEndpoint.uid, event_type: 'load.tick', data: { marker } },
    ),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  return res.ok || `${res.status} from ${viaSource ? 'ingest' : 'the events API'}: ${text.slice(0, 120)}`;
}

/** Names (`pod/…`) of the pods of one service. */
async function podsOf(service: string): Promise<string[]> {
  const out = await kubectl('get', 'pods', '-l', `app.kubernetes.io/component=${service}`, '-o', 'name');
  return out.trim().split('\n').filter(Boolean);
}

async function readyReplicas(service: string): Promise<number> {
  const out = await kubectl(
    'get',
    'deployment',
    deployment(service),
    '-o',
    'jsonpath={.status.readyReplicas}',
  );
  return Number(out || 0);
}

/** Runs of a hook Job that completed (the Job is deleted after each, its events stay). */
async function hookRunsCompleted(job: 'setup' | 'after-rollout' = 'setup'): Promise<number> {
  const events = await kubectl(
    'get',
    'events',
    '--field-selector',
    `involvedObject.kind=Job,involvedObject.name=${RELEASE}-hookrail-${job},reason=Completed`,
    '-o',
    'name',
  );
  return events.trim().split('\n').filter(Boolean).length;
}

function report(r: LoadReport): LoadReport {
  figures[r.phase] = r;
  console.log(`${r.phase}: ${JSON.stringify(r)}`);
  return r;
}

/**
 * The answers of a stopping pod: a pod going away finishes what it was asked and tells each client
 * to reconnect (another pod answers), so no send gets a 5xx for it. A connection reset in a race
 * with the pod's close is retried, as any client does.
 */
function serverErrors(r: LoadReport): string[] {
  return Object.keys(r.refusedThenRetried).filter((reason) => /^5\d\d /.test(reason));
}

beforeAll(async () => {
  if (!helmBin) throw new Error('helm is missing: run bash deploy/local/provision.sh --test-tools');
  receiver = await startReceiver({ host: HOST_IP });
  await helm('uninstall', RELEASE, '--wait').catch(() => undefined);
  const t0 = Date.now();
  await helm('install', ...installArgs('previous', PREVIOUS)).catch(async (err: unknown) => {
    console.log(
      `helm install of the previous release failed; the cluster's state:\n${await clusterDiagnostics()}`,
    );
    throw err;
  });
  figures.previousInstallReadyMs = Date.now() - t0;
  // helm's --wait is over once the pods are ready; the node port may take a moment more.
  await waitFor(
    'the gateway through its node port',
    () =>
      fetch(`${GATEWAY}/readyz`).then(
        (r) => r.ok,
        () => false,
      ),
    {
      timeoutMs: 60_000,
      intervalMs: 500,
    },
  );
  // The string a change stream source names (values: changeStreams.connections), as an operator keeps it.
  await kubectl('delete', 'secret', 'hr-user-db', '--ignore-not-found');
  await kubectl('create', 'secret', 'generic', 'hr-user-db', `--from-literal=connection-string=${USER_DB}`);
  await createProject();
  const sent = await burst('previous', PREVIOUS_EVENTS, 16, sendOne);
  figures.previousRelease = await sent.report(receiver);
});

/** The project, its two endpoints and its HTTP source, made through the previous release's API. */
async function createProject(): Promise<void> {
  const project = await api<{ uid: string; api_key: { key: string } }>(adminKey, 'POST', '/v1/projects', {
    name: 'k8s',
    type: 'outgoing',
  });
  projectKey = project.api_key.key;
  p = `/v1/projects/${project.uid}`;
  apiEndpoint = await endpointAt('from-api');
  sourceEndpoint = await endpointAt('from-source');
  const source = await api<{ uid: string; url: string }>(projectKey, 'POST', `${p}/sources`, {
    name: 'orders',
    type: 'http',
  });
  sourceId = source.uid;
  sourceUrl = source.url;
  await api(projectKey, 'POST', `${p}/subscriptions`, {
    name: 'from the source',
    endpoint_id: sourceEndpoint.uid,
    source_id: source.uid,
    filter_config: { event_types: ['*'] },
  });
}

/** SQL on the Postgres a change stream source watches (test-env.sh starts it on the node's address). */
async function psql(sql: string): Promise<string> {
  const bin = localStackPath('PG_BIN');
  if (!bin) throw new Error('Postgres is missing: run bash deploy/local/provision.sh');
  const { stdout } = await run(
    path.join(bin, 'psql'),
    ['-h', NODE_IP, '-p', '5433', '-U', 'postgres', '-d', 'postgres', '-v', 'ON_ERROR_STOP=1', '-c', sql],
    { env: { ...process.env, PGPASSWORD: 'postgres' }, timeout: 30_000 },
  );
  return stdout;
}

/** Every item of a list of the project, page after page. */
const listAll = (route: string) => listAllPages<Record<string, string>>(`${GATEWAY}/api`, projectKey, route);

/** The release's database as the upgrade left it: its migrations' states, documents without list keys. */
async function upgradedDatabase(): Promise<{ migrations: string[]; unkeyed: Record<string, number> }> {
  const url = `mongodb://${NODE_IP}:27017/hookrail?retryWrites=false`;
  const store = await Store.connect(url, 'k8s-test');
  const conn = await mongoose.createConnection(url).asPromise();
  try {
    const migrations = (await store.migrations().status()).map((m) => `${m.key}: ${m.state}`);
    const unkeyed: Record<string, number> = {};
    for (const name of ['events', 'event_deliveries'])
      unkeyed[name] = await conn.db!.collection(name).countDocuments({ keys: { $exists: false } });
    return { migrations, unkeyed };
  } finally {
    await store.close();
    await conn.close();
  }
}

/** What a failed install leaves to read: pods, the set-up hook's logs and the recent events. */
async function clusterDiagnostics(): Promise<string> {
  const read = (...args: string[]) =>
    kubectl(...args).catch((e: Error) => `(${args.join(' ')}: ${e.message})`);
  return [
    await read('get', 'pods,jobs', '-o', 'wide'),
    await read('logs', '-l', 'app.kubernetes.io/component=setup', '--tail=80', '--prefix'),
    await read('describe', 'pods', '-l', 'app.kubernetes.io/component=setup'),
    await read('get', 'events', '--sort-by=.lastTimestamp'),
  ].join('\n');
}

afterAll(async () => {
  await receiver?.close();
  const out = path.join(root, '.local/k8s');
  mkdirSync(out, { recursive: true });
  writeFileSync(path.join(out, 'report.json'), `${JSON.stringify(figures, null, 2)}\n`);
  console.log(`Kubernetes figures (.local/k8s/report.json):\n${JSON.stringify(figures, null, 2)}`);
});

describe('helm install on a single-node Kubernetes', () => {
  it('upgrades from the previous release under a steady load: its migrations applied, every service ready, helm test passes, nothing lost', async () => {
    expect(figures.previousRelease).toMatchObject({ sent: PREVIOUS_EVENTS, lost: 0 });
    const load = new SteadyLoad('from-previous', LOAD_PER_SECOND, sendOne);
    await sleep(5_000);
    const u0 = Date.now();
    installOutput = await helm('upgrade', ...installArgs('dev')).catch(async (err: unknown) => {
      console.log(`helm upgrade failed; the cluster's state:\n${await clusterDiagnostics()}`);
      throw err;
    });
    figures.upgradeFromPreviousMs = Date.now() - u0;
    await sleep(5_000);
    const r = report(await load.stop(receiver));
    expect(r.lost).toBe(0);
    expect(serverErrors(r)).toEqual([]);

    const pods = await kubectl('get', 'pods', '-l', `app.kubernetes.io/instance=${RELEASE}`, '-o', 'json');
    const items = (
      JSON.parse(pods) as {
        items: {
          metadata: { labels: Record<string, string> };
          spec: { containers: { image: string }[] };
          status: { phase: string };
        }[];
      }
    ).items.filter((i) => i.status.phase === 'Running' && i.spec.containers[0].image.endsWith(':dev'));
    expect([...new Set(items.map((i) => i.metadata.labels['app.kubernetes.io/component']))].sort()).toEqual(
      [...SERVICES].sort(),
    );
    // Both hooks ran to completion and were deleted (hook-delete-policy hook-succeeded).
    expect(await hookRunsCompleted('setup')).toBeGreaterThanOrEqual(2);
    expect(await hookRunsCompleted('after-rollout')).toBe(1);
    expect(await kubectl('get', 'jobs', '-o', 'name')).toBe('');
    // On failure the Pod stays (hook-delete-policy hook-succeeded): its log says why.
    const tested = await helm('test', RELEASE).catch(async (err: Error) => {
      const log = await kubectl('logs', `${RELEASE}-hookrail-test-gateway`).catch(() => '(no log)');
      throw new Error(`${err.message}\ntest Pod log:\n${log}`);
    });
    expect(tested).toMatch(/hr-hookrail-test-gateway\s+Last Started:[\s\S]*Phase:\s+Succeeded/);
  });

  it('keeps what the previous release stored: every migration recorded, every document keyed, its events and deliveries in the lists', async () => {
    const db = await upgradedDatabase();
    expect(db.migrations.length).toBeGreaterThanOrEqual(4);
    expect(db.migrations.filter((m) => !m.endsWith(': applied'))).toEqual([]);
    expect(db.unkeyed).toEqual({ events: 0, event_deliveries: 0 });
    // The previous release's events through the source, found by the source filter, and their deliveries.
    const previous = (figures.previousRelease as LoadReport).sent / 2;
    const bySource = await listAll(`${p}/events?sourceId=${sourceId}`);
    expect(bySource.length).toBeGreaterThanOrEqual(previous);
    // A status is written just after its attempt: the last ones may still be on their way.
    await waitFor('a delivery of each source event in Success', async () => {
      const ids = new Set(
        (await listAll(`${p}/eventdeliveries?endpointId=${sourceEndpoint.uid}&status=Success`)).map(
          (d) => d.event_id,
        ),
      );
      return bySource.every((e) => ids.has(e.uid));
    });
  });

  it('delivers signed events from the events API and an HTTP source through the NodePorts; serves the console and portal', async () => {
    expect(sourceUrl.startsWith(`http://${NODE_IP}:30081/ingest/`)).toBe(true);
    for (const [seq, marker] of ['first-via-api', 'first-via-source'].entries()) {
      expect(await sendOne(marker, seq)).toBe(true);
      const got = await waitFor(
        `${marker} at the receiver`,
        () => receiver.requests.find((r) => r.body.includes(marker)),
        { timeoutMs: 60_000 },
      );
      const secret = (seq === 0 ? apiEndpoint : sourceEndpoint).secret;
      expect(got.path).toBe(seq === 0 ? '/from-api' : '/from-source');
      expect(verifySimple(got.rawBody, got.headers['x-hookrail-signature'] ?? '', [secret])).toBe(true);
    }

    // the console is where the install's notes say it is
    const consoleUrl = /^Console: +(\S+)/m.exec(installOutput)?.[1];
    expect(consoleUrl).toBe(`${GATEWAY}/console`);
    const consolePage = await fetch(consoleUrl!);
    expect(consolePage.status).toBe(200);
    expect(await consolePage.text()).toMatch(/<script src="\/console\/assets\/console-[^"]+\.js">/);
    const link = await api<{ url: string; token: string }>(projectKey, 'POST', `${p}/portal-links`, {
      name: 'customer-1',
      owner_id: 'customer-1',
    });
    expect((await fetch(link.url)).status).toBe(200);
    const portalApi = await fetch(`${GATEWAY}/portal-api/link`, {
      headers: { authorization: `Bearer ${link.token}` },
    });
    expect(portalApi.status).toBe(200);
  });

  it('streams a MongoDB collection into webhooks through the installed chart (a db_change_stream source on a connection from a Secret)', async () => {
    const conn = await mongoose.createConnection(USER_DB).asPromise();
    try {
      // The source is checked against the database when created: the collection must exist.
      const orders = conn.useDb('shop').collection('orders');
      await orders.insertOne({ marker: 'before-the-source' });
      const cdcEndpoint = await endpointAt('from-cdc');
      const source = await api<{ uid: string }>(projectKey, 'POST', `${p}/sources`, {
        name: 'orders-collection',
        type: 'db_change_stream',
        db_change_stream: {
          type: 'mongodb',
          connection: 'shop-db',
          database: 'shop',
          collections: ['orders'],
        },
      });
      expect(JSON.stringify(source)).not.toContain('27018');
      await api(projectKey, 'POST', `${p}/subscriptions`, {
        name: 'from the collection',
        endpoint_id: cdcEndpoint.uid,
        source_id: source.uid,
        filter_config: { event_types: ['*'] },
      });
      // The source-consumer opens the stream when it sees the source, reading from then on: the
      // insert is repeated until one arrives.
      const got = await waitFor(
        'a change of shop.orders at the receiver',
        async () => {
          await orders.insertOne({ marker: `cdc-${Date.now()}` });
          return receiver.requests.find((r) => r.path === '/from-cdc');
        },
        { timeoutMs: 120_000, intervalMs: 2_000 },
      );
      expect(got.body).toMatch(/"marker":"cdc-\d+"/);
      expect(JSON.parse(got.body)).toMatchObject({ collection: 'orders', operation: 'insert' });
      expect(verifySimple(got.rawBody, got.headers['x-hookrail-signature'] ?? '', [cdcEndpoint.secret])).toBe(
        true,
      );
    } finally {
      await conn.close();
    }
  });

  it('streams a Postgres table into webhooks through the installed chart (a db_change_stream source, logical replication)', async () => {
    await psql('CREATE TABLE IF NOT EXISTS orders (id serial PRIMARY KEY, marker text)');
    const pgEndpoint = await endpointAt('from-postgres');
    const source = await api<{ uid: string }>(projectKey, 'POST', `${p}/sources`, {
      name: 'orders-table',
      type: 'db_change_stream',
      db_change_stream: {
        type: 'postgres',
        connection_string: `postgres://postgres:postgres@${NODE_IP}:5433/postgres`,
        database: 'postgres',
        publication: 'hookrail_k8s',
        slot: 'hookrail_k8s',
        tables: ['orders'],
        create_if_missing: true,
      },
    });
    await api(projectKey, 'POST', `${p}/subscriptions`, {
      name: 'from the table',
      endpoint_id: pgEndpoint.uid,
      source_id: source.uid,
      filter_config: { event_types: ['*'] },
    });
    // The slot, made when the source was created, keeps every change from then on: one insert.
    await psql("INSERT INTO orders (marker) VALUES ('pg-k8s-1')");
    const got = await waitFor(
      'the row at the receiver',
      () => receiver.requests.find((r) => r.path === '/from-postgres'),
      { timeoutMs: 120_000, intervalMs: 1_000 },
    );
    expect(JSON.parse(got.body)).toMatchObject({
      table: 'orders',
      operation: 'insert',
      row: { marker: 'pg-k8s-1' },
    });
    expect(verifySimple(got.rawBody, got.headers['x-hookrail-signature'] ?? '', [pgEndpoint.secret])).toBe(
      true,
    );
  });

  it('catches up on a backlog with every pod inside its memory limit: nothing lost, no pod restarted', async () => {
    // The dispatcher is stopped while the burst is accepted, so it starts on the whole backlog and
    // takes as many events at once as it may: its most memory-hungry moment.
    await kubectl('scale', 'deployment', deployment('dispatcher'), '--replicas=0');
    await waitFor('no dispatcher', async () => (await podsOf('dispatcher')).length === 0, {
      timeoutMs: 120_000,
      intervalMs: 1000,
    });
    const sent = await burst('backlog', BACKLOG_EVENTS, 32, sendOne);
    await kubectl('scale', 'deployment', deployment('dispatcher'), '--replicas=1');
    const r = await sent.report(receiver);
    const pods = podMemory(
      await kubectl('get', 'pods', '-l', `app.kubernetes.io/instance=${RELEASE}`, '-o', 'json'),
      CGROUP_ROOT,
    );
    figures.backlog = {
      ...r,
      acceptedPerSecond: Math.round(r.sent / (sent.acceptMs / 1000)),
      // From the dispatcher's scale-up, its start included, until the last event arrived.
      caughtUpPerSecond: Math.round(r.sent / (r.drainMs / 1000)),
      peakMemory: Object.fromEntries(pods.map((m) => [m.pod, `${m.peakMiB} of ${m.limitMiB} MiB`])),
    };
    console.log(`backlog: ${JSON.stringify(figures.backlog)}`);
    expect(r.sent).toBe(BACKLOG_EVENTS);
    expect(r.lost).toBe(0);
    expect(new Set(pods.map((m) => m.service))).toEqual(new Set(SERVICES));
    for (const m of pods) {
      expect({ pod: m.pod, restarts: m.restarts, lastTerminated: m.lastTerminated }).toEqual({
        pod: m.pod,
        restarts: 0,
        lastTerminated: null,
      });
      expect(m.peakMiB).toBeLessThan(m.limitMiB);
    }
  });

  it('scales the dispatcher 1 → 3 → 1 under a steady load without losing an event', async () => {
    const load = new SteadyLoad('scale', LOAD_PER_SECOND, sendOne);
    await sleep(5_000);
    await kubectl('scale', 'deployment', deployment('dispatcher'), '--replicas=3');
    await waitFor('3 dispatchers ready', async () => (await readyReplicas('dispatcher')) === 3, {
      timeoutMs: 180_000,
      intervalMs: 1000,
    });
    await sleep(10_000);
    await kubectl('scale', 'deployment', deployment('dispatcher'), '--replicas=1');
    await waitFor('1 dispatcher left', async () => (await podsOf('dispatcher')).length === 1, {
      timeoutMs: 120_000,
      intervalMs: 1000,
    });
    await sleep(5_000);
    const r = report(await load.stop(receiver));
    expect(r.sent).toBeGreaterThan(0);
    expect(r.lost).toBe(0);
  });

  it('rolls every service to a rebuilt image under a steady load, re-running the set-up hook, with the PDBs respected and nothing lost', async () => {
    const t0 = Date.now();
    await exec(
      'bash',
      [
        path.join(root, 'deploy/docker/build.sh'),
        '--tag',
        'hookrail:rebuilt',
        '--build-arg',
        `HOOKRAIL_REVISION=rebuilt-${t0}`,
      ],
      600_000,
    );
    await exec('bash', [
      path.join(root, 'deploy/k8s/cluster.sh'),
      'load-image',
      'localhost/hookrail:rebuilt',
    ]);
    figures.rebuildAndLoadMs = Date.now() - t0;

    // Every PodDisruptionBudget's healthy pods, sampled through the rollout.
    let watching = true;
    const belowBudget: string[] = [];
    const watchBudgets = (async () => {
      while (watching) {
        const pdbs = JSON.parse(await kubectl('get', 'pdb', '-o', 'json')) as {
          items: { metadata: { name: string }; status: { currentHealthy: number; desiredHealthy: number } }[];
        };
        for (const b of pdbs.items)
          if (b.status.currentHealthy < b.status.desiredHealthy)
            belowBudget.push(`${b.metadata.name} ${b.status.currentHealthy}/${b.status.desiredHealthy}`);
        await sleep(500);
      }
    })();

    const setupRunsBefore = await hookRunsCompleted();
    const load = new SteadyLoad('upgrade', LOAD_PER_SECOND, sendOne);
    await sleep(5_000);
    const u0 = Date.now();
    await helm('upgrade', ...installArgs('rebuilt'));
    figures.upgradeMs = Date.now() - u0;
    await sleep(5_000);
    const r = report(await load.stop(receiver));
    watching = false;
    await watchBudgets;

    // The old pods finish their pre-stop delay and shutdown after helm's --wait has returned.
    const images = () =>
      kubectl(
        'get',
        'pods',
        '-l',
        `app.kubernetes.io/instance=${RELEASE}`,
        '-o',
        'jsonpath={.items[*].spec.containers[0].image}',
      );
    await waitFor(
      'only pods of the rebuilt image',
      async () => new Set((await images()).split(' ')).size === 1,
      {
        timeoutMs: 60_000,
        intervalMs: 1000,
      },
    );
    expect(new Set((await images()).split(' '))).toEqual(new Set(['localhost/hookrail:rebuilt']));
    // The set-up hook ran again, to completion, on the upgrade (it is idempotent).
    expect(await hookRunsCompleted()).toBe(setupRunsBefore + 1);
    expect(belowBudget).toEqual([]);
    expect(r.lost).toBe(0);
    expect(serverErrors(r)).toEqual([]);
  });

  it('loses nothing when a pod of each service is deleted in turn under a steady load', async () => {
    const load = new SteadyLoad('kill', LOAD_PER_SECOND, sendOne);
    const recovered: Record<string, number> = {};
    await sleep(3_000);
    for (const service of SERVICES) {
      const [pod] = await podsOf(service);
      const t0 = Date.now();
      await kubectl('delete', pod, '--wait=false');
      await waitFor(
        `${service} ready again without ${pod}`,
        async () => {
          const desired = Number(
            await kubectl('get', 'deployment', deployment(service), '-o', 'jsonpath={.spec.replicas}'),
          );
          return !(await podsOf(service)).includes(pod) && (await readyReplicas(service)) === desired;
        },
        { timeoutMs: 180_000, intervalMs: 1000 },
      );
      recovered[service] = Date.now() - t0;
    }
    figures.podKillRecoveryMs = recovered;
    await sleep(5_000);
    const r = report(await load.stop(receiver));
    expect(r.lost).toBe(0);
    expect(serverErrors(r)).toEqual([]);
  });

  it('helm uninstall leaves none of the release’s objects behind', async () => {
    // Foreground: helm returns once the Deployments' ReplicaSets and Pods are gone too.
    await helm('uninstall', RELEASE, '--cascade', 'foreground', '--wait', '--timeout', '3m');
    const left = await kubectl(
      'get',
      'all,secrets,configmaps,pdb,hpa,serviceaccounts,networkpolicies,ingresses,jobs',
      '-l',
      `app.kubernetes.io/instance=${RELEASE}`,
      '-o',
      'name',
    );
    expect(left.trim()).toBe('');
    expect((await helm('list', '-q')).trim()).toBe('');
  });

  it('keeps the cluster inside its netns, and down leaves the host as it found it', async () => {
    const cluster = path.join(root, 'deploy/k8s/cluster.sh');
    // Nothing in the cluster can reach beyond the netns: no default route there.
    expect(await exec('bash', [cluster, 'exec', 'ip', 'route'])).not.toMatch(/^default/m);
    await exec('bash', [path.join(root, 'deploy/k8s/test-env.sh'), 'down']);
    const before = readFileSync(path.join(root, '.local/k8s-host-before.txt'), 'utf8');
    expect(await exec('bash', [cluster, 'snapshot'])).toEqual(before);
  });
});
