/**
 * Hookdeck Outpost, run beside Hookrail for the side-by-side bench: a peer measured with the same
 * instrument, never a dependency. Its binaries come from OUTPOST_BIN_DIR (bench/outpost/setup.sh
 * builds them outside the repository); each start gives it a Redis of its own, a database of its
 * own (migrated by `outpost migrate apply`) on the machine's Postgres, and the local RabbitMQ;
 * stop ends them and drops the database.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serverPid } from './processes';

/** Where the servers are; the defaults are bench/outpost/setup.sh's. */
const PG_HOST = process.env.OUTPOST_PG_HOST ?? '127.0.0.1:5432';
const PG_AUTH = process.env.OUTPOST_PG_AUTH ?? 'outpost:outpost';
/** Debian's cluster writes its postmaster's pid here (external_pid_file). */
const PG_PID_FILE = process.env.OUTPOST_PG_PID_FILE ?? '/var/run/postgresql/15-main.pid';
const REDIS_PORT = Number(process.env.OUTPOST_REDIS_PORT ?? 6389);
const API_PORT = Number(process.env.OUTPOST_API_PORT ?? 3333);
const RABBITMQ_URL = process.env.OUTPOST_RABBITMQ_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const API_KEY = 'bench-outpost-api-key';
const REDIS_PASSWORD = 'bench-outpost-redis';

export interface OutpostSystem {
  apiUrl: string;
  apiKey: string;
  /** Its process's pid and its servers': redis, postgres (with backends), rabbitmq (with helpers). */
  pids: Map<string, number>;
  /** The names in `pids` charged with their children (CpuMeter's `trees`). */
  trees: ReadonlySet<string>;
  /** The commit it was built from (bench/outpost/setup.sh writes bin/COMMIT). */
  commit: string;
  /** Delivery attempts its log service has written to Postgres so far. */
  loggedAttempts(): number;
  stop(): Promise<void>;
}

const pgUrl = (db: string) => `postgres://${PG_AUTH}@${PG_HOST}/${db}?sslmode=disable`;
const psql = (db: string, sql: string) =>
  execFileSync('psql', [pgUrl(db), '-qAtc', sql], { encoding: 'utf8' }).trim();

/** Outpost's environment (its loadtest's concurrencies; its defaults are 1). */
function outpostEnv(database: string): Record<string, string> {
  return {
    API_PORT: String(API_PORT),
    API_KEY,
    API_JWT_SECRET: 'bench-outpost-jwt-secret',
    AES_ENCRYPTION_SECRET: 'bench-outpost-aes-secret-32bytes',
    REDIS_HOST: '127.0.0.1',
    REDIS_PORT: String(REDIS_PORT),
    REDIS_PASSWORD,
    REDIS_DATABASE: '0',
    RABBITMQ_SERVER_URL: RABBITMQ_URL,
    POSTGRES_URL: pgUrl(database),
    TOPICS: 'bench.event',
    // Otherwise it reports to Hookdeck.
    DISABLE_TELEMETRY: 'true',
    PORTAL_REFERER_URL: 'http://127.0.0.1/',
    DELIVERY_MAX_CONCURRENCY: '100',
    LOG_MAX_CONCURRENCY: '100',
    PUBLISH_MAX_CONCURRENCY: '100',
  };
}

/** Waits until `ok` answers true, checking every 250 ms; throws after `ms`. */
async function waitFor(what: string, ok: () => Promise<boolean>, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await ok().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what} not ready after ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** A Redis of its own, without persistence (a fresh start has nothing to load). */
async function startRedis(dir: string): Promise<ChildProcess> {
  const answers = () => {
    try {
      return execFileSync('redis-cli', ['-p', String(REDIS_PORT), 'ping'], {
        encoding: 'utf8',
        stdio: 'pipe',
      }).includes('PONG');
    } catch {
      return false;
    }
  };
  // Someone else's server on the port would be measured (and reconfigured) in its place.
  if (answers()) throw new Error(`a Redis already answers on 127.0.0.1:${REDIS_PORT} (OUTPOST_REDIS_PORT)`);
  const redis = spawn(
    'redis-server',
    ['--bind', '127.0.0.1', '--port', String(REDIS_PORT), '--dir', dir, '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', openSync(path.join(dir, 'redis.log'), 'a'), 'inherit'] },
  );
  await waitFor('redis', async () => answers());
  execFileSync('redis-cli', ['-p', String(REDIS_PORT), 'config', 'set', 'requirepass', REDIS_PASSWORD]);
  return redis;
}

/** SIGTERM, then SIGKILL after `ms` if it has not exited. */
async function stopChild(child: ChildProcess, ms = 15_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    const hard = setTimeout(() => child.kill('SIGKILL'), ms);
    child.once('exit', () => (clearTimeout(hard), resolve()));
    child.kill('SIGTERM');
  });
}

/** Messages waiting in Outpost's delivery and log queues on RabbitMQ. */
function queuedMessages(): number {
  const out = execFileSync('rabbitmqctl', ['-q', 'list_queues', 'name', 'messages'], { encoding: 'utf8' });
  return out
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([name]) => name === 'outpost-delivery' || name === 'outpost-log')
    .reduce((sum, [, n]) => sum + Number(n), 0);
}

/** The pids a run charges to Outpost: its process and its three servers. */
function outpostPids(server: ChildProcess, redis: ChildProcess): Map<string, number> {
  const pids = new Map<string, number>([
    ['outpost-server', server.pid!],
    ['redis', redis.pid!],
    ['postgres', Number(readFileSync(PG_PID_FILE, 'utf8').split('\n')[0])],
  ]);
  const rabbitmq = serverPid('rabbitmq');
  if (rabbitmq) pids.set('rabbitmq', rabbitmq);
  // A broker this checkout did not start has no pid file here: its share goes uncounted.
  else console.warn('RabbitMQ has no pid in .local/servers: its CPU is not charged to Outpost');
  return pids;
}

/** The steps that undo a start, run last first; a failed start runs them too, leaving nothing behind. */
class Teardown {
  private steps: (() => unknown)[] = [];
  add(step: () => unknown): void {
    this.steps.push(step);
  }
  async run(): Promise<void> {
    for (const step of this.steps.reverse())
      await Promise.resolve()
        .then(step)
        .catch((err: unknown) => console.warn(`Outpost teardown: ${String(err)}`));
    this.steps = [];
  }
}

/** Its Redis, a new database migrated, then outpost-server, each with its undoing in `teardown`. */
async function launch(binDir: string, teardown: Teardown) {
  const dir = mkdtempSync(path.join(tmpdir(), 'outpost-bench-'));
  teardown.add(() => rmSync(dir, { recursive: true, force: true }));
  const redis = await startRedis(dir);
  teardown.add(() => stopChild(redis));
  const database = `outpost_bench_${Date.now()}`;
  psql('postgres', `create database ${database}`);
  teardown.add(() => psql('postgres', `drop database if exists ${database} with (force)`));
  const env = { ...process.env, ...outpostEnv(database) };
  execFileSync(path.join(binDir, 'outpost'), ['migrate', 'apply', '--yes'], { env, stdio: 'ignore' });
  const log = openSync(path.join(dir, 'outpost.log'), 'a');
  const server = spawn(path.join(binDir, 'outpost-server'), [], { env, stdio: ['ignore', log, log] });
  teardown.add(() => stopChild(server));
  const apiUrl = `http://127.0.0.1:${API_PORT}/api/v1`;
  await waitFor(`outpost-server (log: ${dir}/outpost.log)`, async () =>
    (await fetch(`${apiUrl}/healthz`).then((r) => r.text())).includes('"healthy"'),
  );
  return { apiUrl, database, server, redis };
}

/** Starts Outpost freshly from `binDir`: its Redis, a new database migrated, then outpost-server. */
export async function startOutpost(binDir: string): Promise<OutpostSystem> {
  for (const bin of ['outpost', 'outpost-server'])
    if (!existsSync(path.join(binDir, bin)))
      throw new Error(
        `${bin} not in OUTPOST_BIN_DIR=${binDir} (bash bench/outpost/setup.sh build <snapshot>)`,
      );
  const teardown = new Teardown();
  const { apiUrl, database, server, redis } = await launch(binDir, teardown).catch(async (err: unknown) => {
    await teardown.run();
    throw err;
  });
  const commitFile = path.join(binDir, 'COMMIT');
  return {
    apiUrl,
    apiKey: API_KEY,
    pids: outpostPids(server, redis),
    trees: new Set(['postgres', 'rabbitmq']),
    commit: existsSync(commitFile) ? readFileSync(commitFile, 'utf8').trim() : 'unknown commit',
    loggedAttempts: () => Number(psql(database, 'select count(*) from attempts')),
    stop: async () => {
      // Else the log service's last batch is left unacknowledged and written again at the next start.
      await waitFor('empty Outpost queues', async () => queuedMessages() === 0, 30_000).catch((err) =>
        console.warn(String(err)),
      );
      await teardown.run();
    },
  };
}

/** Creates a tenant and one webhook destination on `url` for every topic, signing with `secret`. */
export async function createOutpostDestination(
  outpost: OutpostSystem,
  tenant: string,
  url: string,
  secret: string,
): Promise<void> {
  const call = async (method: string, route: string, body?: unknown) => {
    const res = await fetch(`${outpost.apiUrl}${route}`, {
      method,
      headers: { authorization: `Bearer ${outpost.apiKey}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`Outpost ${method} ${route} answered ${res.status}: ${await res.text()}`);
  };
  await call('PUT', `/tenants/${tenant}`);
  await call('POST', `/tenants/${tenant}/destinations`, {
    type: 'webhook',
    topics: ['*'],
    config: { url },
    credentials: { secret },
  });
}
