/**
 * The Hookrail stack the end-to-end benches measure: the six services, each its own process on
 * its bundle (buildServices first), on the local Kafka and MongoDB-protocol server, with a project
 * whose endpoint points at the bench's receiver.
 */
import mongoose from 'mongoose';
import { asProjectId, newId, type ProjectId } from '@hookrail/domain';
import { Store } from '@hookrail/store';
import { deleteTopicsWithPrefix, makeEndpoint, uniquePrefix } from '@hookrail/testkit';
import { serverPids, startService, stopService, type ServiceProcess } from './processes';

const BENCH_ADMIN_KEY = 'hr_admin.bench-admin-key-0123456789';
const SERVICES = ['api-gateway', 'ingest', 'dispatcher', 'retry-scheduler', 'meta-event', 'source-consumer'];

export interface HookrailStack {
  /** The services in start order: api-gateway first, ingest second. */
  services: ServiceProcess[];
  /** Each service's pid, and Kafka's and the database's (serverPids). */
  pids: Map<string, number>;
  store: Store;
  /** The Kafka topic prefix the services use (deleted by stop). */
  topicPrefix: string;
  /** Stops the services; drops the database if `dropDatabase`; deletes the topics. */
  stop(opts: { dropDatabase: boolean }): Promise<void>;
}

const LOCAL_SERVER = 'mongodb://127.0.0.1:27017';

/**
 * The URL of a new database for one run of a bench on the local server (`<prefix>-<ms>`), after
 * dropping those that interrupted runs of the same bench left (a run that ends drops its own):
 * the server reads its catalogue of every collection and index for each inserted document, so
 * leftovers make every later run slower (26 left by interrupted runs did, 2026-12-06).
 */
export async function freshBenchDatabase(prefix: string): Promise<string> {
  const conn = await mongoose.createConnection(`${LOCAL_SERVER}/?retryWrites=false`).asPromise();
  try {
    const { databases } = await conn.db!.admin().listDatabases({ nameOnly: true });
    for (const { name } of databases)
      if (name.startsWith(`${prefix}-`)) await conn.useDb(name, { useCache: false }).dropDatabase();
  } finally {
    await conn.close();
  }
  // retryWrites=false as on the local stack (docs/database.md, "Retryable writes").
  return `${LOCAL_SERVER}/${prefix}-${Date.now()}?retryWrites=false`;
}

/**
 * Starts the services on a database of their own (`mongoUrl` for the bench's store; the services
 * get `servicesDbUrl`, which may go through a relay) and a fresh topic prefix, from port `firstPort`.
 */
export async function startHookrailStack(opts: {
  mongoUrl: string;
  servicesDbUrl?: string;
  firstPort?: number;
  /** More environment for every service (e.g. HOOKRAIL_ALLOW_PRIVATE_BROKERS for a local user database). */
  env?: Record<string, string>;
  /** Dispatcher replicas (1): the others are named dispatcher-2, … and take the ports after the six. */
  dispatchers?: number;
}): Promise<HookrailStack> {
  const topicPrefix = uniquePrefix('bench');
  const env = {
    HOOKRAIL_KAFKA_TOPIC_PREFIX: topicPrefix,
    HOOKRAIL_LOG_LEVEL: 'warn',
    HOOKRAIL_MONGODB_URL: opts.servicesDbUrl ?? opts.mongoUrl,
    HOOKRAIL_ADMIN_KEY: BENCH_ADMIN_KEY,
    HOOKRAIL_ALLOW_PRIVATE_TARGETS: 'true',
    ...opts.env,
  };
  const store = await Store.connect(opts.mongoUrl, 'bench');
  await store.migrate();
  const services: ServiceProcess[] = [];
  try {
    const firstPort = opts.firstPort ?? 18_500;
    for (const [i, name] of SERVICES.entries()) services.push(await startService(name, firstPort + i, env));
    for (let n = 2; n <= (opts.dispatchers ?? 1); n++)
      services.push(
        await startService(`dispatcher-${n}`, firstPort + SERVICES.length + n - 2, env, 'dispatcher'),
      );
  } catch (err) {
    // A service that does not come up leaves none of the others running.
    for (const s of services.reverse()) await stopService(s);
    await store.close();
    throw err;
  }
  const pids = serverPids();
  for (const s of services) if (s.child.pid) pids.set(s.name, s.child.pid);
  const stop = async ({ dropDatabase }: { dropDatabase: boolean }) => {
    for (const s of [...services].reverse()) await stopService(s);
    if (dropDatabase) await store.dropDatabase();
    await deleteTopicsWithPrefix(topicPrefix);
    await store.close();
  };
  return { services, pids, store, topicPrefix, stop };
}

/**
 * Creates a project through the gateway (as a user would, which also issues its API key) and an
 * endpoint on `url` signing with `secret`; subscriptions are the caller's.
 */
export async function createBenchProject(
  stack: HookrailStack,
  url: string,
  secret: string,
): Promise<{ projectId: ProjectId; apiKey: string; endpointId: string }> {
  const created = (await fetch(`${stack.services[0].url}/api/v1/projects`, {
    method: 'POST',
    headers: { authorization: `Bearer ${BENCH_ADMIN_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `bench-${newId()}`, type: 'incoming' }),
  }).then((r) => r.json())) as { data: { uid: string; api_key: { key: string } } };
  const projectId = asProjectId(created.data.uid);
  const now = new Date();
  const ep = await makeEndpoint(stack.store, projectId, {
    url,
    secrets: [
      { uid: newId(), value: secret, created_at: now, updated_at: now, deleted_at: null, expires_at: null },
    ],
  });
  return { projectId, apiKey: created.data.api_key.key, endpointId: ep._id };
}
