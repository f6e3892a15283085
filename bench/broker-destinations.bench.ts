/**
 * Broker destinations, one kind after another on the local servers: N events are published to
 * `hookrail.events` for one endpoint of that kind, with the dispatcher as its own process (the
 * bundle production runs), and the clock runs until the broker holds all N messages. The rate is
 * deliveries/s acknowledged by the broker (Kafka acks=-1, AMQP confirm, SQS/Pub/Sub message id).
 *
 *   npx tsx bench/broker-destinations.bench.ts [--events 2000] [--kinds kafka,amqp,sqs,google_pubsub]
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { newId } from '@hookrail/domain';
import type { EndpointType } from '@hookrail/store';
import {
  connectTestStore,
  deleteTopicsWithPrefix,
  eventMessage,
  makeEndpoint,
  makeProject,
  makeSubscription,
  TEST_BROKERS,
  TEST_MONGODB_URL,
  testBus,
  uniquePrefix,
  waitFor,
} from '@hookrail/testkit';
import { DESTINATION_KINDS } from '../services/dispatcher/src/testing/destination-kinds';
import { buildServices, CpuMeter, startService, stopService } from './support/processes';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '2000' },
    kinds: { type: 'string', default: DESTINATION_KINDS.map(([k]) => k).join(',') },
  },
});
const total = Number(values.events);
const kinds = values.kinds.split(',') as EndpointType[];

async function main() {
  const prefix = uniquePrefix('bench-dest');
  const store = await connectTestStore();
  const bus = testBus(prefix);
  await bus.ensureTopics();
  const env = {
    HOOKRAIL_MONGODB_URL: TEST_MONGODB_URL,
    HOOKRAIL_KAFKA_TOPIC_PREFIX: prefix,
    HOOKRAIL_KAFKA_PARTITIONS: '6',
    HOOKRAIL_ALLOW_PRIVATE_TARGETS: 'true',
    HOOKRAIL_LOG_LEVEL: 'warn',
    HOOKRAIL_SQS_ENDPOINT: TEST_BROKERS.sqsEndpoint,
    PUBSUB_EMULATOR_HOST: TEST_BROKERS.pubsubEmulatorHost,
  };
  buildServices();
  const dispatcher = await startService('dispatcher', 19393, env);
  const publisher = await bus.connectPublisher();
  console.log(`broker destinations: ${total} events per kind, dispatcher as a process`);
  console.log('  (a shared 2-core machine: other work on it changes these figures from run to run)');
  const rows: string[] = [];
  try {
    for (const type of kinds) {
      const make = DESTINATION_KINDS.find(([k]) => k === type)?.[1];
      if (!make) throw new Error(`unknown kind ${type}`);
      const kind = await make(`bench-${type}-${randomBytes(3).toString('hex')}`.replace(/_/g, '-'));
      try {
        const projectId = await makeProject(store);
        const endpoint = await makeEndpoint(store, projectId, {
          url: '',
          type,
          destination: kind.destination,
        });
        const sourceId = newId();
        await makeSubscription(store, projectId, { endpoint_id: endpoint._id, source_id: sourceId });
        const meter = new CpuMeter(new Map([['dispatcher', dispatcher.child.pid!]]));
        meter.start();
        const t0 = Date.now();
        for (let i = 0; i < total; i += 500)
          await publisher.publish(
            'events',
            Array.from({ length: Math.min(500, total - i) }, (_, j) =>
              eventMessage(projectId, { source_id: sourceId, data: { n: i + j, type } }),
            ),
          );
        await waitFor(`${type}: ${total} messages on the broker`, async () => (await kind.count()) >= total, {
          timeoutMs: 600_000,
          intervalMs: 100,
        });
        const ms = Date.now() - t0;
        const row = `  ${type.padEnd(13)} ${Math.round(total / (ms / 1000))
          .toString()
          .padStart(6)} deliveries/s (${ms} ms)`;
        console.log(`${row}\n${meter.perEvent(total).slice(0, 1).join('\n')}`);
        rows.push(row);
      } finally {
        await kind.close();
      }
    }
  } finally {
    await stopService(dispatcher);
    await bus.close();
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
