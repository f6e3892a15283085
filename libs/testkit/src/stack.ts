import { randomBytes } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import pTimeout from 'p-timeout';
import { loadConfig, type HookrailConfig, type ServiceName } from '@hookrail/config';
import { startService, type RunningService, type ServiceDefinition } from '@hookrail/runtime';
import { Bus } from '@hookrail/bus';
import { Store } from '@hookrail/store';
import { createLogger, Metrics } from '@hookrail/telemetry';

/** Test database: the local stack's server, its own database so `npm start` data stays apart. */
export const TEST_MONGODB_URL =
  process.env.HOOKRAIL_TEST_MONGODB_URL ?? 'mongodb://127.0.0.1:27017/hookrail-test?retryWrites=false';
export const TEST_KAFKA_BROKERS = (process.env.HOOKRAIL_TEST_KAFKA_BROKERS ?? '127.0.0.1:9092').split(',');

/**
 * A topic prefix of its own per test file: its topics and consumer groups are private to it. Under
 * jest it names the run (HOOKRAIL_TEST_RUN), whose teardown deletes the run's topics.
 */
export function uniquePrefix(name = 't'): string {
  const run = process.env.HOOKRAIL_TEST_RUN;
  return run
    ? `${name}-${run}-${randomBytes(2).toString('hex')}`
    : `${name}-${randomBytes(4).toString('hex')}`;
}

/**
 * Deletes the topics made under `prefix` (its dead-letter topics too): a bench removes what it
 * made, as it drops its database, so runs do not pile up partitions that cost the broker at rest.
 */
export async function deleteTopicsWithPrefix(prefix: string, brokers = TEST_KAFKA_BROKERS): Promise<number> {
  const admin = new Kafka({ clientId: 'tests', brokers, logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    const topics = (await admin.listTopics()).filter((t) => t.startsWith(`${prefix}.`));
    if (topics.length > 0) await admin.deleteTopics({ topics });
    return topics.length;
  } finally {
    await admin.disconnect();
  }
}

/** Config for a service under test: real local servers, a free port, quiet logs, few partitions. */
export function testConfig(service: ServiceName, env: Record<string, string> = {}): Readonly<HookrailConfig> {
  return loadConfig(service, {
    HOOKRAIL_HTTP_PORT: '0',
    HOOKRAIL_LOG_LEVEL: process.env.HOOKRAIL_TEST_LOG_LEVEL ?? 'silent',
    HOOKRAIL_MONGODB_URL: TEST_MONGODB_URL,
    HOOKRAIL_KAFKA_BROKERS: TEST_KAFKA_BROKERS.join(','),
    HOOKRAIL_KAFKA_PARTITIONS: '3',
    HOOKRAIL_ALLOW_PRIVATE_TARGETS: 'true',
    HOOKRAIL_ALLOW_PRIVATE_BROKERS: 'true',
    HOOKRAIL_ADMIN_KEY: 'hr_admin.test-admin-key-0123456789',
    // The test database is shared by every test file: no background purge or retention sweep
    // unless a test asks for it.
    HOOKRAIL_HOUSEKEEPING_INTERVAL_MS: '86400000',
    ...env,
  });
}

const migrated = new Map<string, Promise<void>>();

/**
 * Applies the migrations to a test database once per process: a service starts only on a migrated
 * database (the set-up's job in a deployment), and every test file has a database of its own.
 */
export function migrateTestDatabase(url: string = TEST_MONGODB_URL): Promise<void> {
  let done = migrated.get(url);
  if (!done) {
    done = (async () => {
      const store = await Store.connect(url, 'tests-migrate');
      await store.migrate().finally(() => store.close());
    })();
    done.catch(() => migrated.delete(url));
    migrated.set(url, done);
  }
  return done;
}

/** Starts a service in-process on a migrated database and waits until it is ready. */
export async function startTestService(def: ServiceDefinition, timeoutMs = 45_000): Promise<RunningService> {
  await migrateTestDatabase(def.config.mongodb.url);
  const svc = await startService(def);
  await pTimeout(svc.started, {
    milliseconds: timeoutMs,
    message: `${def.config.service} did not start in ${timeoutMs} ms`,
  });
  return svc;
}

/** Direct handles on the real servers for arranging and asserting. */
export async function connectTestStore(): Promise<Store> {
  await migrateTestDatabase();
  return Store.connect(TEST_MONGODB_URL, 'tests');
}

/** A bus on the local stack's Kafka, or on `brokers` (a private Kafka). */
export function testBus(topicPrefix: string, brokers: string[] = TEST_KAFKA_BROKERS): Bus {
  const logger = createLogger({ service: 'tests', level: 'silent' });
  return new Bus(
    { brokers, clientId: 'tests', topicPrefix, partitions: 3, replicationFactor: 1 },
    { logger, metrics: new Metrics('tests', { defaultMetrics: false }) },
  );
}
