/**
 * Broker sources, one kind after another on the local servers: N messages are published to the
 * source's queue/topic/subscription while the source is disabled, then the source is enabled and
 * the clock starts. Two passes, source-consumer and dispatcher as their own processes:
 *   1. into `hookrail.events`: the source-consumer alone (its Kafka-acknowledged events, counted on
 *      the topic), so the dispatcher does not compete for the machine's cores;
 *   2. end to end: with the dispatcher running, until a local receiver answered every webhook.
 *
 *   npx tsx bench/brokers.bench.ts [--messages 5000] [--workers 16] [--kinds amqp,sqs,google,kafka]
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import type { ConfigMessage } from '@hookrail/bus';
import {
  connectTestStore,
  deleteTopicsWithPrefix,
  makeEndpoint,
  makeProject,
  makeSource,
  makeSubscription,
  startReceiver,
  TEST_BROKERS,
  TEST_MONGODB_URL,
  testBus,
  uniquePrefix,
  waitFor,
} from '@hookrail/testkit';
import { brokerFixture } from '../services/source-consumer/src/testing/broker-fixture';
import { pubSubFor, type Kind } from '../services/source-consumer/src/testing/broker-stack';
import { buildServices, CpuMeter, startService, stopService } from './support/processes';
import type { ProjectId } from '@hookrail/domain';

const { values } = parseArgs({
  options: {
    messages: { type: 'string', default: '5000' },
    workers: { type: 'string', default: '16' },
    kinds: { type: 'string', default: 'amqp,sqs,google,kafka' },
  },
});
const total = Number(values.messages);
const workers = Number(values.workers);
const kinds = values.kinds.split(',') as Kind[];

async function main() {
  const prefix = uniquePrefix('bench-brokers');
  const store = await connectTestStore();
  const bus = testBus(prefix);
  await bus.ensureTopics();
  const receiver = await startReceiver({ countOnly: true });
  const eventsBySource = new Map<string, number>();
  const env = {
    HOOKRAIL_MONGODB_URL: TEST_MONGODB_URL,
    HOOKRAIL_KAFKA_TOPIC_PREFIX: prefix,
    HOOKRAIL_KAFKA_PARTITIONS: '6',
    HOOKRAIL_ALLOW_PRIVATE_TARGETS: 'true',
    HOOKRAIL_ALLOW_PRIVATE_BROKERS: 'true',
    HOOKRAIL_LOG_LEVEL: 'warn',
    HOOKRAIL_SQS_ENDPOINT: TEST_BROKERS.sqsEndpoint,
    PUBSUB_EMULATOR_HOST: TEST_BROKERS.pubsubEmulatorHost,
  };
  buildServices();
  const consumer = await startService('source-consumer', 19391, env);
  const services = [consumer];
  await bus.consume('bench-events', {
    topic: 'events',
    concurrency: 1000,
    handle: async (m) => {
      if (m.source_id) eventsBySource.set(m.source_id, (eventsBySource.get(m.source_id) ?? 0) + 1);
    },
  });
  const announce = async (projectId: ProjectId, id: string, op: ConfigMessage['op']) =>
    (await bus.connectPublisher()).publish('config', [{ project_id: projectId, resource: 'source', id, op }]);

  /** Publishes N messages to a new source of `kind`, enables it and waits for `done(sourceId)`. */
  const run = async (kind: Kind, done: (sourceId: string) => boolean, meter: CpuMeter) => {
    const name = `bench-${kind}-${randomBytes(3).toString('hex')}`;
    const broker = await brokerFixture(kind, name);
    const projectId = await makeProject(store);
    const ep = await makeEndpoint(store, projectId, { name: 'sink', url: `${receiver.url}/hook` });
    const source = await makeSource(store, projectId, {
      type: 'pub_sub',
      pub_sub: pubSubFor(kind, name, workers),
      is_disabled: true,
    });
    await makeSubscription(store, projectId, { name: 'all', source_id: source._id, endpoint_id: ep._id });
    for (let i = 0; i < total; i += 500)
      await broker.publish(Array.from({ length: Math.min(500, total - i) }, (_, j) => ({ n: i + j, kind })));
    meter.start();
    const t0 = Date.now();
    await store.sources.update(projectId, source._id, { is_disabled: false });
    await announce(projectId, source._id, 'updated');
    await waitFor(`${kind} done`, () => done(source._id), { timeoutMs: 300_000, intervalMs: 20 });
    const ms = Date.now() - t0;
    await store.sources.update(projectId, source._id, { is_disabled: true });
    await announce(projectId, source._id, 'updated');
    await broker.close();
    return ms;
  };
  const rate = (ms: number) =>
    `${Math.round(total / (ms / 1000))
      .toString()
      .padStart(6)} msg/s (${ms} ms)`;

  console.log(`broker sources: ${total} messages per kind, ${workers} workers, services as processes`);
  console.log('  (a shared 2-core machine: other work on it changes these figures from run to run)');
  const rows: string[] = [];
  try {
    console.log('into hookrail.events (source-consumer alone):');
    const intoEvents = new Map<Kind, number>();
    for (const kind of kinds) {
      const meter = new CpuMeter(new Map([['source-consumer', consumer.child.pid!]]));
      const ms = await run(kind, (id) => (eventsBySource.get(id) ?? 0) >= total, meter);
      intoEvents.set(kind, ms);
      console.log(`  ${kind.padEnd(7)} ${rate(ms)}\n${meter.perEvent(total).slice(0, 1).join('\n')}`);
    }
    console.log('end to end to the receiver (source-consumer + dispatcher):');
    services.push(await startService('dispatcher', 19392, env));
    for (const kind of kinds) {
      const meter = new CpuMeter(new Map(services.map((s) => [s.name, s.child.pid!])));
      const before = receiver.count();
      const ms = await run(kind, () => receiver.count() - before >= total, meter);
      console.log(`  ${kind.padEnd(7)} ${rate(ms)}\n${meter.perEvent(total).slice(0, 3).join('\n')}`);
      rows.push(
        `  ${kind.padEnd(7)} into hookrail.events ${rate(intoEvents.get(kind)!)}   end to end ${rate(ms)}`,
      );
    }
  } finally {
    await Promise.all(services.map(stopService));
    await bus.close();
    await receiver.close();
    await store.close();
    await deleteTopicsWithPrefix(prefix);
  }
  console.log(['summary', ...rows].join('\n'));
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
