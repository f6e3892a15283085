/**
 * The dispatcher reduced to the design card's packages (bench/floor.bench.ts): a kafkajs consumer
 * of the events topic signs each event (HMAC-SHA256), POSTs it on a keep-alive node:http agent,
 * writes two documents per event (the event; the delivery with its attempt) in one insertMany per
 * collection every 100 ms, and commits a batch once its events are delivered and written. No
 * subscriptions, filters, health, ordering, retries, tracing, metrics or logs.
 *
 * INDEXES `minimal` (the default) writes under three indexes with the driver's write concern;
 * `store` writes into libs/store's collections under every index it declares, journaled as the
 * store writes, with the fields those indexes hold: the database's share as Hookrail pays it.
 *   node floor-dispatcher.js TOPIC_PREFIX TARGET_URL MONGODB_URL [INDEXES]
 */
import http from 'node:http';
import { createHmac } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import mongoose from 'mongoose';
import { newId } from '@hookrail/domain';
import { topicName } from '@hookrail/bus';
import { Store } from '@hookrail/store';

const [prefix, target, mongodbUrl, indexes = 'minimal'] = process.argv.slice(2);
const WRITE_EVERY_MS = 100;
/** The one endpoint every event goes to, as an id of the store's shape. */
const ENDPOINT_ID = newId();

interface Written {
  event: Record<string, unknown>;
  delivery: Record<string, unknown>;
  done: () => void;
}

async function main(): Promise<void> {
  const { events, deliveries } = await collections();

  let waiting: Written[] = [];
  const writeWaiting = async () => {
    const batch = waiting;
    waiting = [];
    if (batch.length === 0) return;
    await events.insertMany(
      batch.map((w) => w.event),
      { ordered: false },
    );
    await deliveries.insertMany(
      batch.map((w) => w.delivery),
      { ordered: false },
    );
    for (const w of batch) w.done();
  };
  let writes = Promise.resolve();
  // A failed write ends the process: the bench then fails instead of waiting for deliveries.
  const failed = (err: unknown) => {
    console.error(err);
    process.exit(1);
  };
  setInterval(() => (writes = writes.then(writeWaiting).catch(failed)), WRITE_EVERY_MS);
  const record = (event: Written['event'], delivery: Written['delivery']) =>
    new Promise<void>((done) => waiting.push({ event, delivery, done }));

  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const send = (body: string, eventId: string) =>
    new Promise<number>((resolve, reject) => {
      const signature = createHmac('sha256', 'bench-secret').update(body).digest('hex');
      const req = http.request(
        target,
        {
          method: 'POST',
          agent,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            'x-hookrail-signature': signature,
            'x-hookrail-event-id': eventId,
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(body);
    });

  const kafka = new Kafka({
    clientId: 'floor-dispatcher',
    brokers: ['127.0.0.1:9092'],
    logLevel: logLevel.NOTHING,
  });
  const consumer = kafka.consumer({ groupId: `${prefix}.floor-dispatcher` });
  await consumer.connect();
  await consumer.subscribe({ topic: topicName(prefix, 'events'), fromBeginning: true });
  // kafkajs resolves a batch once eachBatch returns, and commits what is resolved.
  await consumer.run({
    partitionsConsumedConcurrently: 3,
    eachBatch: async ({ batch }) => {
      await Promise.all(
        batch.messages.map(async (m) => {
          const event = JSON.parse(m.value!.toString()) as {
            event_id: string;
            project_id: string;
            data: unknown;
            raw: string;
          };
          const status = await send(event.raw, event.event_id);
          const at = new Date();
          await record(
            {
              _id: event.event_id,
              project_id: event.project_id,
              source_id: null,
              endpoints: [ENDPOINT_ID],
              idempotency_key: null,
              data: event.data,
              created_at: at,
            },
            {
              _id: newId(),
              event_id: event.event_id,
              project_id: event.project_id,
              endpoint_id: ENDPOINT_ID,
              status,
              attempts: [{ status, at }],
              created_at: at,
            },
          );
        }),
      );
    },
  });
}

async function collections() {
  if (indexes === 'store') {
    const store = await Store.connect(mongodbUrl);
    await store.migrate();
    await store.close();
    const connection = mongoose.createConnection(mongodbUrl, {
      writeConcern: { w: 'majority', journal: true },
    });
    const db = (await connection.asPromise()).db!;
    const [events, deliveries] = [db.collection('events'), db.collection('event_deliveries')];
    for (const c of [events, deliveries])
      if ((await c.indexes()).length < 3)
        throw new Error(`${c.collectionName}: the store's indexes are missing`);
    return { events, deliveries };
  }
  const db = (await mongoose.createConnection(mongodbUrl).asPromise()).db!;
  const events = db.collection('events');
  const deliveries = db.collection('deliveries');
  await events.createIndex({ project_id: 1, created_at: -1 });
  await deliveries.createIndex({ project_id: 1, created_at: -1 });
  await deliveries.createIndex({ event_id: 1 });
  return { events, deliveries };
}

// A clean exit on the bench's SIGTERM, so that --cpu-prof (BENCH_PROFILE_DIR) writes its profile.
process.once('SIGTERM', () => process.exit(0));
void main();
