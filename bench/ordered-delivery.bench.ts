/**
 * Ordered delivery against unordered on the same stack (docs/ordered-delivery.md): a real
 * dispatcher process, a local receiver that answers 200 at once, and `--events` events fed into
 * `events` as fast as Kafka takes them, first to a subscription without ordering, then to one with
 * `ordering: key` over `--keys` distinct keys. Prints delivered/s of each and their ratio.
 *
 *   npx tsx bench/ordered-delivery.bench.ts [--events 5000] [--keys 1000] [--rounds 1]
 */
import { parseArgs } from 'node:util';
import type { EventMessage } from '@hookrail/bus';
import { Store, type OrderingConfig } from '@hookrail/store';
import {
  eventMessage,
  makeEndpoint,
  makeProject,
  makeSource,
  makeSubscription,
  startReceiver,
  startServiceProcess,
  testBus,
  uniquePrefix,
  waitFor,
} from '@hookrail/testkit';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '5000' },
    keys: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '1' },
  },
});
const EVENTS = Number(values.events);
const KEYS = Number(values.keys);

async function main(): Promise<void> {
  const prefix = uniquePrefix('bench-order');
  // A database of its own: the test server scans whole collections, so a shared one would
  // measure other runs' leftovers.
  const mongodbUrl = `mongodb://127.0.0.1:27017/hookrail-bench-${prefix}`;
  const store = await Store.connect(mongodbUrl, 'bench');
  await store.migrate();
  const bus = testBus(prefix);
  await bus.ensureTopics();
  const publisher = await bus.connectPublisher();
  let arrived = 0;
  let lastArrival = 0;
  const receiver = await startReceiver({
    countOnly: true,
    onRequest: () => {
      arrived++;
      lastArrival = Date.now();
    },
  });
  const dispatcher = await startServiceProcess('dispatcher', {
    HOOKRAIL_MONGODB_URL: mongodbUrl,
    HOOKRAIL_KAFKA_TOPIC_PREFIX: prefix,
    HOOKRAIL_ALLOW_PRIVATE_TARGETS: 'true',
    HOOKRAIL_HOUSEKEEPING_INTERVAL_MS: '86400000',
    HOOKRAIL_LOG_LEVEL: 'warn',
  });

  /** One run: a fresh project and subscription, every event published, delivered/s until the last arrived. */
  const run = async (ordering: OrderingConfig | null): Promise<number> => {
    const projectId = await makeProject(store);
    const source = await makeSource(store, projectId, { name: 'bench source' });
    const endpoint = await makeEndpoint(store, projectId, { url: `${receiver.url}/hook`, secrets: [] });
    await makeSubscription(store, projectId, { source_id: source._id, endpoint_id: endpoint._id, ordering });
    const before = arrived;
    const t0 = Date.now();
    for (let start = 0; start < EVENTS; start += 250) {
      const batch: EventMessage[] = Array.from({ length: Math.min(250, EVENTS - start) }, (_, i) => {
        const data = { order_id: `o-${(start + i) % KEYS}`, n: start + i };
        return eventMessage(projectId, {
          source_id: source._id,
          data,
          raw: JSON.stringify(data),
          ...(ordering && { ordered: true }),
        });
      });
      await publisher.publish('events', batch);
    }
    await waitFor('every event delivered', () => arrived - before >= EVENTS, {
      timeoutMs: 600_000,
      intervalMs: 100,
    });
    return Math.round((EVENTS / (lastArrival - t0)) * 1000);
  };

  const figures: { unordered_per_s: number; key_ordered_per_s: number; ratio: number }[] = [];
  for (let round = 0; round < Number(values.rounds); round++) {
    const unordered = await run(null);
    const ordered = await run({
      mode: 'key',
      key: { body_path: 'order_id' },
      unblock_on: ['failure', 'discarded'],
    });
    figures.push({
      unordered_per_s: unordered,
      key_ordered_per_s: ordered,
      ratio: Math.round((ordered / unordered) * 100) / 100,
    });
  }
  console.log(JSON.stringify({ events: EVENTS, keys: KEYS, figures }, null, 2));
  dispatcher.child.kill('SIGTERM');
  await dispatcher.exited;
  await receiver.close();
  await bus.close();
  await store.dropDatabase();
  await store.close();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
