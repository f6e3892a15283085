/**
 * What the database server spends per delivered event on the write path: inserts the documents
 * one delivered event costs (its event and its delivery with the first attempt, shaped as the
 * dispatcher writes them) in journaled batches, into collections with every index of libs/store
 * and into collections with only `_id`, and prints the server's CPU per event for each. The
 * difference is what the list indexes cost.
 *
 *   npm run bench:db                      # 10,000 events, batches of 200
 *   BENCH_EVENTS=20000 BENCH_BATCH=500 npm run bench:db
 */
import mongoose from 'mongoose';
import { newId } from '@hookrail/domain';
import { Store } from '@hookrail/store';
import { cpuMs, serverPid } from './support/processes';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000);
const BATCH = Number(process.env.BENCH_BATCH ?? 200);
const BASE = process.env.BENCH_MONGODB_URL ?? 'mongodb://127.0.0.1:27017';

function documents(n: number): { events: Record<string, unknown>[]; deliveries: Record<string, unknown>[] } {
  const [project, source, endpoint, subscription] = [newId(), newId(), newId(), newId()];
  const events = [];
  const deliveries = [];
  for (let i = 0; i < n; i++) {
    const [id, now] = [newId(), new Date()];
    events.push({
      _id: id,
      project_id: project,
      source_id: source,
      event_type: 'bench.event',
      endpoints: [endpoint],
      raw: JSON.stringify({ n: i, type: 'bench.event', data: { amount: i % 1000, tags: ['a', 'b'] } }),
      headers: JSON.stringify({ 'content-type': ['application/json'] }),
      idempotency_key: null,
      status: 'Processing',
      created_at: now,
      updated_at: now,
    });
    deliveries.push({
      _id: newId(),
      project_id: project,
      event_id: id,
      endpoint_id: endpoint,
      subscription_id: subscription,
      event_type: 'bench.event',
      status: 'Success',
      attempts: [
        {
          uid: newId(),
          http_status: 200,
          request_headers: JSON.stringify({
            'x-hookrail-signature': 'a'.repeat(64),
            'x-hookrail-event-id': id,
          }),
          response_headers: JSON.stringify({ 'content-length': '0' }),
          response_body: '',
          latency_ms: 2,
          created_at: now,
        },
      ],
      created_at: now,
      updated_at: now,
    });
  }
  return { events, deliveries };
}

async function run(label: string, url: string, indexed: boolean, pid: number): Promise<void> {
  if (indexed) {
    const store = await Store.connect(url, 'bench');
    await store.ensureIndexes();
    await store.close();
  }
  const conn = await mongoose
    .createConnection(url, { writeConcern: { w: 'majority', journal: true } })
    .asPromise();
  const db = conn.db!;
  const { events, deliveries } = documents(EVENTS);
  const [t0, c0] = [Date.now(), cpuMs(pid)];
  for (let i = 0; i < EVENTS; i += BATCH)
    await Promise.all([
      db.collection('events').insertMany(events.slice(i, i + BATCH), { ordered: false }),
      db.collection('deliveries').insertMany(deliveries.slice(i, i + BATCH), { ordered: false }),
    ]);
  const cpu = cpuMs(pid) - c0;
  console.log(
    `${label}: server CPU ${(cpu / EVENTS).toFixed(3)} ms per event, ` +
      `${(EVENTS / ((Date.now() - t0) / 1000)).toFixed(0)} events/s (${EVENTS} events, batches of ${BATCH}, journaled)`,
  );
  await db.dropDatabase();
  await conn.close();
}

async function main(): Promise<void> {
  const pid = Number(process.env.BENCH_MONGODB_PID) || serverPid('mongodb');
  if (!pid) throw new Error('no local database server running (npm start), or set BENCH_MONGODB_PID');
  const stamp = Date.now();
  await run('only _id indexes      ', `${BASE}/hookrail-bench-bare-${stamp}`, false, pid);
  await run('every libs/store index', `${BASE}/hookrail-bench-indexed-${stamp}`, true, pid);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
