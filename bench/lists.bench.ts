/**
 * List calls on a big project: seeds ONE project with 200,000 events and 1,000,000 deliveries (five
 * per event) in a database of its own, then times each list call the API offers through the same
 * repository methods the gateway and the portal use, and prints each one's query plan.
 *
 *   npx tsx bench/lists.bench.ts [--events 200000] [--per-event 5] [--calls 20] [--budget 30]
 *                                [--url mongodb://127.0.0.1:27017] [--seed-only] [--drop]
 *
 * The seed is deterministic (ids derive from positions), written with bulk inserts of existing-id
 * skipping batches, and kept: a later run finds the project marked as seeded and only measures.
 * An interrupted seed resumes where it stopped. `--drop` deletes the database first.
 * A call is repeated `--calls` times after one warm-up, or fewer (at least 3) when they take
 * more than `--budget` seconds in all; a call over 10 s is its own warm-up and is sampled twice.
 */
import { parseArgs } from 'node:util';
import { asProjectId, idFrom } from '@hookrail/domain';
import {
  DEFAULT_PROJECT_CONFIG,
  Store,
  type DeliveryDoc,
  type DeliveryStatus,
  type EventDoc,
  type PageRequest,
  type PlanSummary,
} from '@hookrail/store';
import { endpointDoc, sourceDoc } from '@hookrail/testkit';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '200000' },
    'per-event': { type: 'string', default: '5' },
    calls: { type: 'string', default: '20' },
    budget: { type: 'string', default: '30' },
    url: { type: 'string', default: process.env.HOOKRAIL_BENCH_MONGODB_BASE ?? 'mongodb://127.0.0.1:27017' },
    'seed-only': { type: 'boolean', default: false },
    drop: { type: 'boolean', default: false },
  },
});

const EVENTS = Number(values.events);
const PER_EVENT = Number(values['per-event']);
const ENDPOINTS = 10;
const SOURCES = 4;
const BATCH = 2000;
// The events are spread over 30 days, newest a day before the seed's fixed end.
const T_END = Date.UTC(2026, 9, 1);
const SPAN_MS = 30 * 86_400_000;
const eventTime = (i: number) => T_END - SPAN_MS + Math.floor((i * SPAN_MS) / EVENTS);

const PROJECT = asProjectId(idFrom('bench-lists/project', T_END - SPAN_MS - 1));
const endpointId = (k: number) => idFrom(`bench-lists/endpoint/${k}`, T_END - SPAN_MS - 1);
const sourceId = (k: number) => idFrom(`bench-lists/source/${k}`, T_END - SPAN_MS - 1);
const eventId = (i: number) => idFrom(`bench-lists/event/${i}`, eventTime(i));
const deliveryId = (i: number, k: number) => idFrom(`bench-lists/event/${i}/sub/${k}`, eventTime(i));
// An event goes to PER_EVENT consecutive endpoints starting at i % ENDPOINTS.
const endpointOf = (i: number, k: number) => (i + k) % ENDPOINTS;
const STATUSES: [DeliveryStatus, number][] = [
  ['Success', 90],
  ['Failure', 5],
  ['Retry', 3],
  ['Discarded', 1],
  ['Scheduled', 1],
];
function statusOf(i: number, k: number): DeliveryStatus {
  let r = (i * 7 + k * 13) % 100;
  for (const [s, share] of STATUSES) {
    if (r < share) return s;
    r -= share;
  }
  return 'Success';
}

function event(i: number): EventDoc {
  const at = new Date(eventTime(i));
  return {
    _id: eventId(i),
    project_id: PROJECT,
    source_id: sourceId(i % SOURCES),
    app_id: null,
    event_type: ['invoice.paid', 'invoice.created', 'customer.updated', 'order.shipped'][i % 4],
    idempotency_key: i % 10 === 0 ? `order-${i}` : null,
    is_duplicate_event: false,
    status: Array.from({ length: PER_EVENT }, (_, k) => statusOf(i, k)).includes('Failure')
      ? 'Failure'
      : 'Success',
    status_reason: null,
    delivery_count: PER_EVENT,
    raw: JSON.stringify({
      id: `evt_${i}`,
      amount: (i % 1000) * 3,
      currency: 'EUR',
      customer: { id: `cus_${i % 5000}` },
    }),
    headers_json: '{"content-type":"application/json"}',
    forward_headers_json: '{}',
    url_query_params: '',
    metadata: '',
    endpoints: Array.from({ length: PER_EVENT }, (_, k) => endpointId(endpointOf(i, k))),
    target: { mode: 'broadcast' },
    acknowledged_at: at,
    created_at: at,
    updated_at: at,
    deleted_at: null,
  };
}

function delivery(i: number, k: number): DeliveryDoc {
  const at = new Date(eventTime(i));
  const status = statusOf(i, k);
  const done = new Date(eventTime(i) + 40);
  return {
    _id: deliveryId(i, k),
    project_id: PROJECT,
    event_id: eventId(i),
    endpoint_id: endpointId(endpointOf(i, k)),
    subscription_id: idFrom(`bench-lists/subscription/${endpointOf(i, k)}`, T_END - SPAN_MS - 1),
    source_id: sourceId(i % SOURCES),
    event_type: 'invoice.paid',
    status,
    delivery_mode: 'at_least_once',
    payload: null,
    attempts_made: status === 'Scheduled' ? 0 : 1,
    retries_used: 0,
    next_attempt_at: status === 'Retry' || status === 'Scheduled' ? new Date(eventTime(i) + 60_000) : null,
    status_reason: status === 'Failure' ? 'HTTP 500' : null,
    attempts:
      status === 'Scheduled'
        ? []
        : [
            {
              uid: `${deliveryId(i, k)}-1`,
              url: `https://hooks.example.com/${k}`,
              method: 'POST',
              request_headers_json: '{"content-type":"application/json","x-hookrail-signature":"t=1,v1=abc"}',
              response_headers_json: '{"content-type":"text/plain"}',
              http_status: status === 'Success' ? 200 : 500,
              response_data: status === 'Success' ? 'ok' : 'internal error',
              error: null,
              latency_ms: 40,
              created_at: done,
            },
          ],
    metadata: {},
    created_at: at,
    updated_at: done,
    deleted_at: null,
  };
}

async function seed(store: Store): Promise<void> {
  const now = new Date();
  const t0 = Date.now();
  for (let k = 0; k < ENDPOINTS; k++) {
    await store.endpoints.insert(
      PROJECT,
      endpointDoc(PROJECT, {
        _id: endpointId(k),
        owner_id: k < 3 ? 'acme' : null,
        name: `endpoint-${k}`,
        url: `https://hooks.example.com/${k}`,
      }),
    );
  }
  for (let k = 0; k < SOURCES; k++) {
    await store.sources.insert(
      PROJECT,
      sourceDoc(PROJECT, { _id: sourceId(k), name: `source-${k}`, mask_id: `bench-lists-${k}` }),
    );
  }
  let written = 0;
  let last = Date.now();
  for (let from = 0; from < EVENTS; from += BATCH / PER_EVENT) {
    const to = Math.min(EVENTS, from + BATCH / PER_EVENT);
    const evs: EventDoc[] = [];
    const dels: DeliveryDoc[] = [];
    for (let i = from; i < to; i++) {
      evs.push(event(i));
      for (let k = 0; k < PER_EVENT; k++) dels.push(delivery(i, k));
    }
    await store.events.insertManyIfAbsent(evs);
    await store.deliveries.insertManyIfAbsent(dels);
    written += evs.length + dels.length;
    if (Date.now() - last > 15_000 || to === EVENTS) {
      last = Date.now();
      const s = (last - t0) / 1000;
      console.log(
        `  seeded ${to} events + ${to * PER_EVENT} deliveries in ${s.toFixed(0)} s (${Math.round(written / s)} docs/s)`,
      );
    }
  }
  // the marker: a project exists only once everything else was written
  await store.projects.insert({
    _id: PROJECT,
    name: `bench-lists ${EVENTS}x${PER_EVENT}`,
    type: 'outgoing',
    config: { ...DEFAULT_PROJECT_CONFIG },
  });
  console.log(
    `seed: ${EVENTS + EVENTS * PER_EVENT} documents in ${((Date.now() - t0) / 1000).toFixed(0)} s (${now.toISOString()})`,
  );
}

/** A call this slow is sampled only twice (plus its explain, which runs it once more). */
const SLOW_MS = 10_000;
const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

interface Case {
  name: string;
  run: () => Promise<unknown>;
}

function cases(store: Store): Case[] {
  const first: PageRequest = { perPage: 20, sort: 'DESC', direction: 'next' };
  const deep = (cursor: string): PageRequest => ({ ...first, cursor });
  const mid = Math.floor(EVENTS / 2);
  const day = (d: number) => new Date(T_END - d * 86_400_000);
  const oneDay = { from: day(16), to: day(15) };
  const ep = [endpointId(3)];
  const portal = [endpointId(0), endpointId(1), endpointId(2)];
  return [
    { name: 'events: first page', run: () => store.events.page(PROJECT, {}, first) },
    {
      name: 'events: first page as the API serves it (+ its deliveries, endpoints, source)',
      run: async () => {
        const page = await store.events.page(PROJECT, {}, first);
        const ids = page.content.map((e) => e._id);
        await store.deliveries.listByEvents(PROJECT, ids);
        await store.endpoints.findByIds(PROJECT, [...new Set(page.content.flatMap((e) => e.endpoints))]);
        await store.sources.findByIds(PROJECT, [...new Set(page.content.flatMap((e) => e.source_id ?? []))]);
      },
    },
    { name: 'events: by source', run: () => store.events.page(PROJECT, { sourceId: sourceId(1) }, first) },
    { name: 'events: by endpoint', run: () => store.events.page(PROJECT, { endpointIds: ep }, first) },
    {
      name: 'events: portal (3 endpoints)',
      run: () => store.events.page(PROJECT, { endpointIds: portal }, first),
    },
    { name: 'events: one day', run: () => store.events.page(PROJECT, { createdRange: oneDay }, first) },
    {
      name: 'events: by source, one day',
      run: () => store.events.page(PROJECT, { sourceId: sourceId(1), createdRange: oneDay }, first),
    },
    {
      name: 'events: by idempotency key',
      run: () => store.events.page(PROJECT, { idempotencyKey: `order-${mid - (mid % 10)}` }, first),
    },
    {
      name: 'events: page at the middle (cursor)',
      run: () => store.events.page(PROJECT, {}, deep(eventId(mid))),
    },
    {
      name: 'events: by endpoint, page at the middle',
      run: () => store.events.page(PROJECT, { endpointIds: ep }, deep(eventId(mid))),
    },
    { name: 'deliveries: first page', run: () => store.deliveries.page(PROJECT, {}, first) },
    {
      name: 'deliveries: by event',
      run: () => store.deliveries.page(PROJECT, { eventId: eventId(mid) }, first),
    },
    {
      name: 'deliveries: by endpoint',
      run: () => store.deliveries.page(PROJECT, { endpointIds: ep }, first),
    },
    {
      name: 'deliveries: portal (3 endpoints)',
      run: () => store.deliveries.page(PROJECT, { endpointIds: portal }, first),
    },
    {
      name: 'deliveries: by status Failure',
      run: () => store.deliveries.page(PROJECT, { statuses: ['Failure'] }, first),
    },
    {
      name: 'deliveries: by endpoint and status Failure',
      run: () => store.deliveries.page(PROJECT, { endpointIds: ep, statuses: ['Failure'] }, first),
    },
    {
      name: 'deliveries: one day',
      run: () => store.deliveries.page(PROJECT, { createdRange: oneDay }, first),
    },
    {
      name: 'deliveries: by endpoint, one day',
      run: () => store.deliveries.page(PROJECT, { endpointIds: ep, createdRange: oneDay }, first),
    },
    {
      name: 'deliveries: page at the middle (cursor)',
      run: () => store.deliveries.page(PROJECT, {}, deep(deliveryId(mid, 0))),
    },
    {
      name: 'deliveries: by endpoint, page at the middle',
      run: () => store.deliveries.page(PROJECT, { endpointIds: ep }, deep(deliveryId(mid, 0))),
    },
  ];
}

function planLine(p: PlanSummary): string {
  return `${p.collection}: ${p.stages.join(' > ')}${p.indexes.length ? ` [${p.indexes.join(', ')}]` : ''}; keys ${p.keysExamined}, docs ${p.docsExamined}, returned ${p.returned}, ${p.executionMs} ms`;
}

async function measure(store: Store): Promise<void> {
  const calls = Number(values.calls);
  const budgetMs = Number(values.budget) * 1000;
  const rows: string[] = [];
  console.log('\n| call | n | p50 ms | p95 ms |\n|---|---|---|---|');
  for (const c of cases(store)) {
    let failure: string | null = null;
    const times: number[] = [];
    try {
      // a warm-up call, unless the call is slow enough to be its own warm-up
      const t0 = performance.now();
      await c.run();
      const first = performance.now() - t0;
      if (first > SLOW_MS) times.push(first);
      const started = Date.now();
      const least = first > SLOW_MS ? 2 : 3;
      while (times.length < calls && (times.length < least || Date.now() - started < budgetMs)) {
        const t = performance.now();
        await c.run();
        times.push(performance.now() - t);
      }
    } catch (err) {
      failure = (err as Error).message.split('\n')[0];
    }
    const s = [...times].sort((a, b) => a - b);
    console.log(
      failure
        ? `| ${c.name} | – | failed: ${failure} | |`
        : `| ${c.name} | ${s.length} | ${pct(s, 50).toFixed(1)} | ${pct(s, 95).toFixed(1)} |`,
    );
    if (!failure) {
      const { plans } = await store.explain(c.run);
      rows.push(`${c.name}\n${plans.map((p) => `    ${planLine(p)}`).join('\n')}`);
    }
  }
  console.log(`\nplans (explain executionStats):\n${rows.join('\n')}`);
}

async function main(): Promise<void> {
  const db = `hookrail-bench-lists-${EVENTS}x${PER_EVENT}`;
  const store = await Store.connect(`${values.url}/${db}`, 'bench-lists');
  try {
    if (values.drop) await store.dropDatabase();
    await store.migrate();
    if (await store.projects.findById(PROJECT)) console.log(`${db}: seeded already`);
    else {
      console.log(
        `${db}: seeding ${EVENTS} events and ${EVENTS * PER_EVENT} deliveries in batches of ${BATCH}`,
      );
      await seed(store);
    }
    if (!values['seed-only']) await measure(store);
  } finally {
    await store.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
