/**
 * End-to-end benchmark on the local stack: the six services run as their own processes on the
 * real Kafka and MongoDB-protocol server; events are delivered to a keep-alive receiver in this
 * process that verifies every signature. Two kinds of traffic, each with its phases:
 *  - mixed: events POSTed alternately to HTTP ingest and to the gateway's events API, at max rate
 *    over BENCH_SIZES events, then BENCH_RATE/s for BENCH_RATE_SECONDS;
 *  - api: events POSTed only to the events API (`POST /api/v1/projects/{p}/events`, the shape
 *    peers are compared on), at max rate over BENCH_API_SIZE events, then BENCH_RATE/s for
 *    BENCH_API_RATE_SECONDS.
 * Prints, per phase: delivered events/s, end-to-end latency percentiles (accepted request sent →
 * request received by the endpoint), CPU ms per delivered event of every process, in all and
 * above its rate at rest (measured over 5 s before the phase), and each service's garbage
 * collections in the phase; then each service's garbage collections and peak resident memory over
 * the run, and lost, duplicated and badly signed counts.
 *
 *   npm run bench                      # mixed: 3,000 and 20,000 at max rate, 200/s for 20 s; then api: 20,000 at max rate, 200/s for 15 s
 *   BENCH_TRAFFIC=api npm run bench    # only the events-API phases, on services just started
 *   BENCH_SIZES=5000 BENCH_RATE=400 BENCH_RATE_SECONDS=10 npm run bench
 *   BENCH_DB_TAP=1 npm run bench   # also count database round trips per event (a relay in this process)
 *   BENCH_TIMELINE=/tmp/t.txt npm run bench   # each phase writes "event sent accepted delivered" (ms from its start),
 *                                             # and to /tmp/t.txt.cpu each process's CPU every 10 ms
 *                                             # (npm run bench:timeline -- /tmp/t.txt: the slow clusters)
 *   BENCH_JSON=/tmp/r.json npm run bench   # also writes each phase's figures as JSON (bench/compare.ts reads them)
 *   BENCH_SERVICES_FROM=../other npm run bench   # measures another checkout's services (bench/support/processes.ts)
 */
import http from 'node:http';
import { writeFileSync } from 'node:fs';
import { CpuTimeline } from './support/cpu-timeline';
import { makeSource, makeSubscription } from '@hookrail/testkit';
import { kafkaRequests, requestsPerEvent } from './support/kafka-requests';
import { describeGcPauses, gcPauses, gcPausesBetween, gcPausesOf } from './support/gc-pauses';
import { atFixedRate, atMaxRate } from './support/load-shapes';
import { MongoTap, perEventSummary } from './support/mongo-tap';
import { buildServices, CpuMeter, formatPerEvent, peakRssMiB } from './support/processes';
import type { BenchPhase, BenchResult } from './support/bench-result';
import { createBenchProject, startHookrailStack } from './support/hookrail-stack';
import { pct } from './support/percentile';
import { hookrailSignatureOk, startSignedReceiver } from './support/signed-receiver';

const SIZES = (process.env.BENCH_SIZES ?? '3000,20000').split(',').map(Number);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);
const RATE = Number(process.env.BENCH_RATE ?? 200);
const RATE_SECONDS = Number(process.env.BENCH_RATE_SECONDS ?? 20);
const API_SIZE = Number(process.env.BENCH_API_SIZE ?? 20_000);
const API_RATE_SECONDS = Number(process.env.BENCH_API_RATE_SECONDS ?? 15);
/** Which traffic to run, in order: `mixed`, `api` or both (comma-separated). */
const TRAFFIC = (process.env.BENCH_TRAFFIC ?? 'mixed,api').split(',') as Traffic[];
type Traffic = 'mixed' | 'api';
/** How long to wait for stragglers before calling an accepted event lost. */
const DRAIN_SECONDS = Number(process.env.BENCH_DRAIN_SECONDS ?? 120);
const DATABASE = `hookrail-bench-${Date.now()}`;
// retryWrites=false as on the local stack (docs/database.md, "Retryable writes").
const MONGODB_URL =
  process.env.BENCH_MONGODB_URL ?? `mongodb://127.0.0.1:27017/${DATABASE}?retryWrites=false`;
/** The relay adds a hop and this process's CPU to every database round trip: off by default. */
const DB_TAP = process.env.BENCH_DB_TAP === '1';
const JSON_FILE = process.env.BENCH_JSON;
const SECRET = 'bench-secret';

async function main(): Promise<void> {
  const dbUrl = new URL(MONGODB_URL);
  const tap = DB_TAP
    ? await MongoTap.start({ host: dbUrl.hostname, port: Number(dbUrl.port || 27017) })
    : null;
  if (tap) {
    dbUrl.port = String(tap.port);
    // Else the driver follows the server's own address from its hello and bypasses the relay.
    dbUrl.searchParams.set('directConnection', 'true');
  }
  const sentAt = new Map<string, number>();
  /** When the accepting answer (2xx) came back: the rest of the latency is the pipeline's. */
  const acceptedAt = new Map<string, number>();
  const { receiver, tally } = await startSignedReceiver({
    idHeader: 'x-hookrail-event-id',
    signatureOk: hookrailSignatureOk(SECRET),
  });
  const delivered = tally.delivered;

  buildServices();
  const stack = await startHookrailStack({ mongoUrl: MONGODB_URL, servicesDbUrl: dbUrl.toString() });
  const { services, pids, store } = stack;
  const [gw, ing] = services;
  const cpu = new CpuMeter(pids, { profiled: process.env.BENCH_PROFILE_DIR ? services.length : 0 });

  const { projectId, apiKey, endpointId } = await createBenchProject(stack, `${receiver.url}/bench`, SECRET);
  const source = await makeSource(store, projectId, { name: 'bench' });
  // One subscription per way in: a subscription naming the source takes only the source's events.
  await makeSubscription(store, projectId, { endpoint_id: endpointId, source_id: source._id });
  await makeSubscription(store, projectId, { endpoint_id: endpointId });

  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const ingestUrl = new URL(`${ing.url}/ingest/${source.mask_id}`);
  const eventsUrl = new URL(`${gw.url}/api/v1/projects/${projectId}/events`);
  let sendErrors = 0;
  let sequence = 0;
  // Mixed traffic: even events go to HTTP ingest, odd ones through the events API (to the same
  // endpoint); api traffic: every event through the events API.
  let traffic: Traffic = 'mixed';
  const post = () =>
    new Promise<void>((resolve) => {
      const i = sequence++;
      const payload = { n: i, type: 'bench.event', data: { amount: i % 1000, tags: ['a', 'b'] } };
      const viaApi = traffic === 'api' || i % 2 === 1;
      const body = JSON.stringify(
        viaApi ? { endpoint_id: endpointId, event_type: 'bench.event', data: payload } : payload,
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
              const id = data.event_id ?? data.uid ?? '';
              sentAt.set(id, started);
              acceptedAt.set(id, Date.now());
            } else if (sendErrors++ === 0)
              console.error(
                `${viaApi ? 'events API' : 'ingest'} answered ${res.statusCode}: ${text.slice(0, 200)}`,
              );
            resolve();
          });
        },
      );
      req.on('error', () => (sendErrors++, resolve()));
      req.end(body);
    });

  const waitDelivered = async (ids: string[], timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline && ids.some((id) => !delivered.has(id)))
      await new Promise((r) => setTimeout(r, 50));
  };
  const phases: BenchPhase[] = [];
  const phase = async (label: string, load: () => Promise<void>) => {
    const before = new Set(sentAt.keys());
    // Each phase starts on a stack at rest, and is charged for its own trailing record writes.
    const settledMs = await cpu.settle();
    await cpu.measureIdle();
    cpu.start();
    const db0 = tap?.snapshot();
    const kafka0 = await kafkaRequests(services);
    const gc0 = await gcPauses(services);
    const timelineFile = process.env.BENCH_TIMELINE;
    const timeline = timelineFile ? new CpuTimeline(pids) : undefined;
    const t0 = Date.now();
    timeline?.start();
    await load();
    const ids = [...sentAt.keys()].filter((id) => !before.has(id));
    await waitDelivered(ids, 120_000);
    timeline?.stop();
    const got = ids.filter((id) => delivered.has(id));
    const end = Math.max(...got.map((id) => delivered.get(id) ?? 0));
    const trailingMs = await cpu.settle();
    const lat = got.map((id) => delivered.get(id)! - sentAt.get(id)!).sort((a, b) => a - b);
    const accept = ids.map((id) => acceptedAt.get(id)! - sentAt.get(id)!).sort((a, b) => a - b);
    if (timelineFile && timeline) {
      const since = (at: number | undefined) => (at === undefined ? '-' : at - t0);
      const rows = ids.map((id) =>
        [id, since(sentAt.get(id)), since(acceptedAt.get(id)), since(delivered.get(id))].join(' '),
      );
      // The first line gives the phase's start as epoch ms, to line the rows up with servers' logs.
      writeFileSync(timelineFile, [`# t0 ${t0}`, ...rows].join('\n') + '\n');
      writeFileSync(`${timelineFile}.cpu`, timeline.lines().join('\n') + '\n');
    }
    const rate = got.length / ((end - t0) / 1000);
    const cpuPerEvent = cpu.perEventFigures(Math.max(1, got.length));
    phases.push({
      label,
      accepted: ids.length,
      delivered: got.length,
      eventsPerSecond: rate,
      latencyMs: { p50: pct(lat, 50), p95: pct(lat, 95), p99: pct(lat, 99) },
      acceptedMs: { p50: pct(accept, 50), p99: pct(accept, 99) },
      cpuPerEvent,
    });
    console.log(
      `${label}: ${ids.length} accepted, ${rate.toFixed(0)} events/s delivered, ` +
        `latency p50 ${pct(lat, 50)} ms, p95 ${pct(lat, 95)} ms, p99 ${pct(lat, 99)} ms, not yet delivered ${ids.length - got.length}`,
    );
    console.log(
      `  accepted (2xx answer) after p50 ${pct(accept, 50)} ms, p99 ${pct(accept, 99)} ms; ` +
        `the rest is routing and delivery`,
    );
    if (tap && db0)
      console.log(
        `  database round trips per delivered event (all services): ${perEventSummary(db0, tap.snapshot(), got.length)}`,
      );
    console.log(
      `  Kafka requests per delivered event: ${requestsPerEvent(kafka0, await kafkaRequests(services), got.length)}`,
    );
    console.log(
      `  the stack came to rest ${(settledMs / 1000).toFixed(0)} s before the phase and ` +
        `${(trailingMs / 1000).toFixed(0)} s after its last delivery (records written beside the deliveries)`,
    );
    console.log(`  CPU at rest, measured over 5 s before the phase:\n${cpu.idle().join('\n')}`);
    console.log(
      `  CPU per delivered event (from the phase's start until the stack is at rest again):\n${formatPerEvent(cpuPerEvent).join('\n')}`,
    );
    // Pauses that line up with the latency tail: a collection over 10 ms stops its process's requests.
    console.log(
      `  garbage collections during the phase:\n${gcPausesBetween(gc0, await gcPauses(services))
        .map((line) => `    ${line}`)
        .join('\n')}`,
    );
  };

  const maxRate = (n: number) => () => atMaxRate(post, n, CONCURRENCY);
  const fixedRate = (seconds: number) => () => atFixedRate(post, RATE, seconds);
  for (const kind of TRAFFIC) {
    traffic = kind;
    if (kind === 'mixed') {
      for (const n of SIZES) await phase(`mixed, max rate (N=${n}, ${CONCURRENCY} connections)`, maxRate(n));
      await phase(`mixed, fixed rate ${RATE}/s for ${RATE_SECONDS} s`, fixedRate(RATE_SECONDS));
    } else {
      await phase(`events API, max rate (N=${API_SIZE}, ${CONCURRENCY} connections)`, maxRate(API_SIZE));
      await phase(`events API, fixed rate ${RATE}/s for ${API_RATE_SECONDS} s`, fixedRate(API_RATE_SECONDS));
    }
  }

  // Where the time goes inside the services: mean time per message of each consumer.
  for (const svc of services) {
    const text = await fetch(`${svc.url}/metrics`).then((r) => r.text());
    const sums = new Map<string, { sum: number; count: number }>();
    for (const m of text.matchAll(
      /^hookrail_bus_handler_duration_seconds_(sum|count)\{[^}]*topic="([^"]+)"[^}]*\} (\S+)$/gm,
    )) {
      const e = sums.get(m[2]) ?? { sum: 0, count: 0 };
      if (m[1] === 'sum') e.sum = Number(m[3]);
      else e.count = Number(m[3]);
      sums.set(m[2], e);
    }
    for (const [topic, e] of sums)
      if (e.count > 0)
        console.log(
          `  ${svc.name} handles a ${topic} message in ${((e.sum / e.count) * 1000).toFixed(1)} ms on average (${e.count} messages)`,
        );
    // First sends the router's process made itself, and those that went round the deliveries topic.
    for (const m of text.matchAll(/^hookrail_first_sends_total\{[^}]*path="([^"]+)"[^}]*\} (\S+)$/gm))
      console.log(`  ${svc.name} first sends ${m[1]}: ${m[2]}`);
    // Pauses the process made itself over the whole run, and the most memory it held.
    console.log(
      `  ${describeGcPauses(svc.name, gcPausesOf(text))}; ` +
        `at most ${peakRssMiB(svc.child.pid ?? 0).toFixed(0)} MiB resident`,
    );
  }
  const all = [...sentAt.keys()];
  await waitDelivered(all, DRAIN_SECONDS * 1000);
  const lost = all.filter((id) => !delivered.has(id));
  console.log(
    `lost (accepted, not delivered after a ${DRAIN_SECONDS} s drain) ${lost.length}${lost.length ? ` e.g. ${lost.slice(0, 3).join(', ')}` : ''}; ` +
      `duplicates ${tally.duplicates}, bad signatures ${tally.badSignatures}, send errors ${sendErrors}, receiver requests ${receiver.count()}`,
  );
  if (JSON_FILE) {
    const result: BenchResult = {
      phases,
      lost: lost.length,
      duplicates: tally.duplicates,
      badSignatures: tally.badSignatures,
      sendErrors,
    };
    writeFileSync(JSON_FILE, JSON.stringify(result, null, 2) + '\n');
  }

  agent.destroy();
  await stack.stop({ dropDatabase: !process.env.BENCH_MONGODB_URL });
  await receiver.close();
  await tap?.close();
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
