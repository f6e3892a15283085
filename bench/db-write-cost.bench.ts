/**
 * What the database server spends per delivered event on the write path: inserts the documents
 * one delivered event costs (its event and its delivery with the first attempt, shaped as the
 * dispatcher writes them) in journaled batches, into collections with every index of libs/store
 * and into collections with only `_id`, and prints the server's CPU per event for each. The
 * difference is what the list indexes cost. Each is run twice: one write at a time, as a
 * service sends its record writes (libs/domain RECORD_WRITES), and the two collections' writes
 * overlapping, to show what overlapping writes cost the server. Last, what a retry costs the server
 * against the insert of a delivery: the sender's read of each stored delivery (`findManyForSend`,
 * with any retry outcomes appended beside it), then a failed retry of each in `Retry` recorded
 * through the store's own `recordOutcomes` (appended beside the document, docs/database.md), twice.
 *
 *   npm run bench:db                      # 10,000 events, batches of 200
 *   BENCH_EVENTS=20000 BENCH_BATCH=500 npm run bench:db
 */
import mongoose from 'mongoose';
import { asProjectId, newId } from '@hookrail/domain';
import { Store, type DeliveryDoc, type DeliveryOutcome, type EventDoc } from '@hookrail/store';
import { cpuMs, serverPids } from './support/processes';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000);
const BATCH = Number(process.env.BENCH_BATCH ?? 200);
const BASE = process.env.BENCH_MONGODB_URL ?? 'mongodb://127.0.0.1:27017';

/** The store's collections of the two documents (checked against their indexes below). */
const COLLECTIONS = ['events', 'event_deliveries'] as const;

/**
 * Documents of the shape and size the dispatcher writes (a one-endpoint event, a 200 first
 * attempt), typed as the store's documents so that a field added there shows here.
 */
function documents(n: number): { events: EventDoc[]; deliveries: DeliveryDoc[] } {
  const [project, endpoint, subscription] = [asProjectId(newId()), newId(), newId()];
  const events: EventDoc[] = [];
  const deliveries: DeliveryDoc[] = [];
  for (let i = 0; i < n; i++) {
    const [id, deliveryId, now] = [newId(), newId(), new Date()];
    events.push({
      _id: id,
      project_id: project,
      source_id: null,
      app_id: null,
      event_type: 'bench.event',
      idempotency_key: null,
      is_duplicate_event: false,
      status: 'Processing',
      status_reason: null,
      raw: JSON.stringify({ n: i, type: 'bench.event', data: { amount: i % 1000, tags: ['a', 'b'] } }),
      headers_json: '{}',
      forward_headers_json: '{}',
      url_query_params: '',
      metadata: '',
      endpoints: [endpoint],
      delivery_count: 1,
      target: { mode: 'single', endpoint_id: endpoint },
      acknowledged_at: now,
      created_at: now,
      updated_at: now,
      deleted_at: null,
    });
    deliveries.push({
      _id: deliveryId,
      project_id: project,
      event_id: id,
      endpoint_id: endpoint,
      subscription_id: subscription,
      source_id: null,
      event_type: 'bench.event',
      status: 'Success',
      delivery_mode: 'at_least_once',
      payload: null,
      attempts_made: 1,
      retries_used: 0,
      next_attempt_at: null,
      status_reason: null,
      attempts: [
        {
          uid: newId(),
          url: 'http://127.0.0.1:8080/bench',
          method: 'POST',
          request_headers_json: JSON.stringify({
            'Content-Type': 'application/json',
            'User-Agent': 'Hookrail/0.1.0',
            'X-Hookrail-Delivery-Id': deliveryId,
            'X-Hookrail-Event-Id': id,
            'X-Hookrail-Event-Type': 'bench.event',
            'X-Hookrail-Signature': 'a'.repeat(64),
          }),
          response_headers_json: JSON.stringify({
            'content-type': 'text/plain',
            date: now.toUTCString(),
            connection: 'keep-alive',
            'keep-alive': 'timeout=30',
            'transfer-encoding': 'chunked',
          }),
          http_status: 200,
          response_data: 'ok',
          error: null,
          latency_ms: 2,
          created_at: now,
        },
      ],
      metadata: { siblings: 1 },
      created_at: now,
      updated_at: now,
      deleted_at: null,
    });
  }
  return { events, deliveries };
}

async function run(
  label: string,
  url: string,
  opts: { indexed: boolean; overlapping: boolean },
  pid: number,
): Promise<void> {
  if (opts.indexed) {
    const store = await Store.connect(url, 'bench');
    await store.migrate();
    await store.close();
  }
  const conn = await mongoose
    .createConnection(url, { writeConcern: { w: 'majority', journal: true } })
    .asPromise();
  const db = conn.db!;
  if (opts.indexed)
    for (const name of COLLECTIONS)
      if ((await db.collection(name).indexes()).length < 2)
        throw new Error(`${name} has no list index: the store's collection names changed`);
  const { events, deliveries } = documents(EVENTS);
  const [t0, c0] = [Date.now(), cpuMs(pid)];
  for (let i = 0; i < EVENTS; i += BATCH) {
    const writes = [
      () =>
        db.collection<EventDoc>(COLLECTIONS[0]).insertMany(events.slice(i, i + BATCH), { ordered: false }),
      () =>
        db
          .collection<DeliveryDoc>(COLLECTIONS[1])
          .insertMany(deliveries.slice(i, i + BATCH), { ordered: false }),
    ];
    if (opts.overlapping) await Promise.all(writes.map((w) => w()));
    else for (const w of writes) await w();
  }
  const cpu = cpuMs(pid) - c0;
  console.log(
    `${label}: server CPU ${(cpu / EVENTS).toFixed(3)} ms per event, ` +
      `${(EVENTS / ((Date.now() - t0) / 1000)).toFixed(0)} events/s (${EVENTS} events, batches of ${BATCH}, journaled)`,
  );
  if (opts.indexed && !opts.overlapping) await retryOutcomes(url, deliveries, pid);
  await db.dropDatabase();
  await conn.close();
}

/**
 * Deliveries whose first attempt failed (stored in `Retry`, unmeasured), then per delivery the
 * sender's read and a failed retry recorded; twice, as a delivery retried.
 */
async function retryOutcomes(url: string, delivered: DeliveryDoc[], pid: number): Promise<void> {
  const store = await Store.connect(url, 'bench');
  const deliveries = delivered.map((d): DeliveryDoc => ({
    ...d,
    _id: newId(),
    status: 'Retry',
    retries_used: 1,
  }));
  await store.deliveries.insertManyIfAbsent(deliveries);
  const outcome = (d: DeliveryDoc): DeliveryOutcome => ({
    delivery: d,
    status: 'Retry',
    reason: 'endpoint answered 500',
    nextAttemptAt: new Date(Date.now() + 1000),
    attempt: {
      ...d.attempts[0],
      uid: newId(),
      http_status: 500,
      response_data: 'failing',
      created_at: new Date(),
    },
    retrySpent: true,
    firstRecord: false,
  });
  for (const round of [1, 2]) {
    const read = await serverCost(pid, deliveries.length, async () => {
      for (let i = 0; i < deliveries.length; i += BATCH)
        await store.deliveries.findManyForSend(
          deliveries.slice(i, i + BATCH).map((d) => ({ projectId: d.project_id, id: d._id })),
        );
    });
    const written = await serverCost(pid, deliveries.length, async () => {
      for (let i = 0; i < deliveries.length; i += BATCH)
        await store.deliveries.recordOutcomes(deliveries.slice(i, i + BATCH).map(outcome));
    });
    console.log(
      `retry ${round} of each: the sender's read ${read.ms} ms per delivery (${read.rate}/s), ` +
        `its outcome recorded ${written.ms} ms (${written.rate}/s), server CPU, batches of ${BATCH}, journaled`,
    );
  }
  await store.close();
}

/** The server's CPU per item and the items per second of `work`. */
async function serverCost(pid: number, items: number, work: () => Promise<void>) {
  const [t0, c0] = [Date.now(), cpuMs(pid)];
  await work();
  const cpu = cpuMs(pid) - c0;
  return { ms: (cpu / items).toFixed(3), rate: (items / ((Date.now() - t0) / 1000)).toFixed(0) };
}

async function main(): Promise<void> {
  const pid = serverPids().get('mongodb');
  if (!pid) throw new Error('no local database server running (npm start), or set BENCH_MONGODB_PID');
  const stamp = Date.now();
  for (const overlapping of [false, true]) {
    const how = overlapping ? 'writes overlapping' : 'one write at a time';
    await run(
      `only _id indexes,       ${how}`,
      `${BASE}/hookrail-bench-bare-${stamp}`,
      { indexed: false, overlapping },
      pid,
    );
    await run(
      `every libs/store index, ${how}`,
      `${BASE}/hookrail-bench-indexed-${stamp}`,
      { indexed: true, overlapping },
      pid,
    );
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
