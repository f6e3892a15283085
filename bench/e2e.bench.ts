/**
 * End-to-end benchmark on the local stack (real Kafka and MongoDB-protocol server): events are
 * POSTed to HTTP ingest and to the gateway's events API (alternately), routed and delivered by the dispatcher to a local keep-alive receiver
 * that verifies every signature. Prints sustained events/s, ingest-to-delivery latency
 * percentiles, and lost or duplicated event ids.
 *
 *   npm run bench                          # N=20000
 *   BENCH_N=5000 BENCH_RATE=200 BENCH_RATE_SECONDS=15 npm run bench
 *
 * The gateway, ingest and dispatcher services run in this process (one core each would be fairer; they
 * share the machine with the servers either way).
 */
import http from 'node:http';
import { createHmac } from 'node:crypto';
import { newId } from '@hookrail/domain';
import { Store } from '@hookrail/store';
import { definition as dispatcher } from '../services/dispatcher/src/service';
import { definition as ingest } from '../services/ingest/src/service';
import { definition as gateway } from '../services/api-gateway/src/service';
import {
  makeEndpoint,
  makeSource,
  makeSubscription,
  startReceiver,
  startTestService,
  testConfig,
  uniquePrefix,
} from '@hookrail/testkit';

const N = Number(process.env.BENCH_N ?? 20_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);
/** A fresh database per run (the test server scans collections: size matters). Never dropped while
 * the server runs: FerretDB on SQLite can crash (SIGBUS) when a database file in use is removed. */
const MONGODB_URL = process.env.BENCH_MONGODB_URL ?? `mongodb://127.0.0.1:27017/hookrail-bench-${Date.now()}`;
const ADMIN_KEY = 'hr_admin.bench-admin-key-0123456789';
const RATE = Number(process.env.BENCH_RATE ?? 200);
const RATE_SECONDS = Number(process.env.BENCH_RATE_SECONDS ?? 15);
/** After both phases, how long to wait for stragglers before calling an accepted event lost. */
const DRAIN_SECONDS = Number(process.env.BENCH_DRAIN_SECONDS ?? 180);
const SECRET = 'bench-secret';

function pct(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN;
}

async function main(): Promise<void> {
  const prefix = uniquePrefix('bench');
  const env = {
    HOOKRAIL_KAFKA_TOPIC_PREFIX: prefix,
    HOOKRAIL_KAFKA_PARTITIONS: '6',
    HOOKRAIL_LOG_LEVEL: 'warn',
    HOOKRAIL_MONGODB_URL: MONGODB_URL,
    HOOKRAIL_ADMIN_KEY: ADMIN_KEY,
  };
  const store = await Store.connect(MONGODB_URL, 'bench');
  await store.ensureIndexes();
  const sentAt = new Map<string, number>();
  const delivered = new Map<string, number>();
  let duplicates = 0;
  let badSignatures = 0;
  const receiver = await startReceiver({
    countOnly: true,
    onRequest: (r) => {
      const id = r.headers['x-hookrail-event-id'];
      if (createHmac('sha256', SECRET).update(r.rawBody).digest('hex') !== r.headers['x-hookrail-signature'])
        badSignatures++;
      if (delivered.has(id)) duplicates++;
      else delivered.set(id, r.receivedAt);
    },
  });

  const gw = await startTestService(gateway(testConfig('api-gateway', env)));
  const created = (await fetch(`${gw.url}/api/v1/projects`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `bench-${newId()}`, type: 'incoming' }),
  }).then((r) => r.json())) as { data: { uid: string; api_key: { key: string } } };
  const projectId = created.data.uid;
  const apiKey = created.data.api_key.key;
  const now = new Date();
  const source = await makeSource(store, projectId, { name: 'bench' });
  const ep = await makeEndpoint(store, projectId, {
    url: `${receiver.url}/bench`,
    secrets: [
      { uid: newId(), value: SECRET, created_at: now, updated_at: now, deleted_at: null, expires_at: null },
    ],
  });
  await makeSubscription(store, projectId, {
    endpoint_id: ep._id,
    source_id: source._id,
  });

  const disp = await startTestService(dispatcher(testConfig('dispatcher', env)));
  const ing = await startTestService(ingest(testConfig('ingest', env)));
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const ingestUrl = new URL(`${ing.url}/ingest/${source.mask_id}`);
  const eventsUrl = new URL(`${gw.url}/api/v1/projects/${projectId}/events`);
  let sendErrors = 0;
  // Even events go to HTTP ingest, odd ones through the events API (to the same endpoint).
  const post = (i: number) =>
    new Promise<void>((resolve) => {
      const payload = { n: i, type: 'bench.event', data: { amount: i % 1000, tags: ['a', 'b'] } };
      const viaApi = i % 2 === 1;
      const body = JSON.stringify(
        viaApi ? { endpoint_id: ep._id, event_type: 'bench.event', data: payload } : payload,
      );
      const started = Date.now();
      const req = http.request(
        viaApi ? eventsUrl : ingestUrl,
        {
          method: 'POST',
          agent,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            ...(viaApi && { authorization: `Bearer ${apiKey}` }),
          },
        },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => {
            if (res.statusCode === 200 || res.statusCode === 201) {
              const data = (JSON.parse(text) as { data: { event_id?: string; uid?: string } }).data;
              sentAt.set((data.event_id ?? data.uid)!, started);
            } else if (sendErrors++ === 0)
              console.error(
                `${viaApi ? 'events API' : 'ingest'} answered ${res.statusCode}: ${text.slice(0, 200)}`,
              );
            resolve();
          });
        },
      );
      req.on('error', () => {
        sendErrors++;
        resolve();
      });
      req.end(body);
    });

  const waitDelivered = async (ids: string[], timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline && ids.some((id) => !delivered.has(id)))
      await new Promise((r) => setTimeout(r, 100));
  };
  const report = (label: string, ids: string[], startMs: number, endMs: number) => {
    const lat = ids
      .filter((id) => delivered.has(id))
      .map((id) => delivered.get(id)! - sentAt.get(id)!)
      .sort((a, b) => a - b);
    const lost = ids.filter((id) => !delivered.has(id)).length;
    console.log(
      `${label}: ${ids.length} accepted, ${(lat.length / ((endMs - startMs) / 1000)).toFixed(0)} events/s delivered end to end, ` +
        `latency p50 ${pct(lat, 50)} ms, p95 ${pct(lat, 95)} ms, p99 ${pct(lat, 99)} ms, not yet delivered ${lost}`,
    );
  };

  // Phase 1: throughput, N events as fast as CONCURRENCY senders go.
  const t0 = Date.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < N) await post(next++);
    }),
  );
  const ids1 = [...sentAt.keys()];
  await waitDelivered(ids1, 120_000);
  const t1 = Math.max(...ids1.map((id) => delivered.get(id) ?? 0));
  report(`throughput (N=${N})`, ids1, t0, t1);

  // Phase 2: latency at a fixed rate.
  const before = new Set(sentAt.keys());
  const tick = 1000 / RATE;
  const t2 = Date.now();
  const inflight: Promise<void>[] = [];
  for (let i = 0; i < RATE * RATE_SECONDS; i++) {
    const due = t2 + i * tick;
    const wait = due - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    inflight.push(post(N + i));
  }
  await Promise.all(inflight);
  const ids2 = [...sentAt.keys()].filter((id) => !before.has(id));
  await waitDelivered(ids2, 60_000);
  report(`fixed rate ${RATE}/s for ${RATE_SECONDS}s`, ids2, t2, Date.now());
  const all = [...sentAt.keys()];
  await waitDelivered(all, DRAIN_SECONDS * 1000);
  const lost = all.filter((id) => !delivered.has(id));
  console.log(
    `lost (accepted, not delivered after a ${DRAIN_SECONDS}s drain) ${lost.length}${lost.length ? ` e.g. ${lost.slice(0, 3).join(', ')}` : ''}; ` +
      `duplicates ${duplicates}, bad signatures ${badSignatures}, send errors ${sendErrors}, receiver requests ${receiver.count()}`,
  );

  agent.destroy();
  await gw.stop();
  await ing.stop();
  await disp.stop();
  await receiver.close();
  await store.close();
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
