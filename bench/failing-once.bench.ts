/**
 * The delivery pipeline with 10 % of deliveries failing their first attempt: real dispatcher and
 * retry-scheduler processes, events fed into `events` at a steady rate, a local receiver.
 * Reports throughput and accepted→delivered latency (first-try and retried deliveries apart).
 *
 *   npx tsx bench/failing-once.bench.ts [--rate 100] [--seconds 30] [--fail 10]
 */
import { parseArgs } from 'node:util';
import { Store } from '@hookrail/store';
import { Pipeline, testBus, uniquePrefix, waitFor } from '@hookrail/testkit';

const { values } = parseArgs({
  options: {
    rate: { type: 'string', default: '100' },
    seconds: { type: 'string', default: '30' },
    fail: { type: 'string', default: '10' },
  },
});

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const summary = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return {
    count: s.length,
    p50_ms: pct(s, 50),
    p90_ms: pct(s, 90),
    p99_ms: pct(s, 99),
    max_ms: s[s.length - 1],
  };
};

async function main(): Promise<void> {
  const prefix = uniquePrefix('bench-fail');
  // A database of its own: the test server scans whole collections, so a shared one would
  // measure other runs' leftovers.
  const mongodbUrl = `mongodb://127.0.0.1:27017/hookrail-bench-${prefix}`;
  const store = await Store.connect(mongodbUrl, 'bench');
  await store.migrate();
  const bus = testBus(prefix);
  await bus.ensureTopics();
  const pipeline = new Pipeline({ prefix, store, bus, failOncePercent: Number(values.fail), mongodbUrl });
  await pipeline.setUp();
  await Promise.all([pipeline.start('dispatcher'), pipeline.start('retry-scheduler')]);
  const t0 = Date.now();
  await pipeline.load(Number(values.rate), Number(values.seconds));
  await waitFor('all delivered', () => pipeline.undelivered().length === 0, {
    timeoutMs: 300_000,
    intervalMs: 500,
  }).catch(() => console.error(`${pipeline.undelivered().length} not delivered in time`));
  // one endpoint: each event's only receipt
  const receipts = new Map([...pipeline.seen].map(([eventId, r]) => [eventId, r.get(0)!]));
  const delivered = [...receipts.values()].filter((s) => s.succeededAt !== undefined);
  const last = Math.max(...delivered.map((s) => s.succeededAt as number));
  const clean: number[] = [];
  const retried: number[] = [];
  for (const [eventId, s] of receipts) {
    const acceptedAt = pipeline.accepted.get(eventId);
    if (acceptedAt === undefined || s.succeededAt === undefined) continue;
    const retriedOnce = [...s.deliveryIds].some((d) => pipeline.failedOnce.has(d));
    (retriedOnce ? retried : clean).push(s.succeededAt - acceptedAt);
  }
  console.log(
    JSON.stringify(
      {
        offered_rate_per_s: Number(values.rate),
        accepted: pipeline.accepted.size,
        delivered: delivered.length,
        failing_once_percent: Number(values.fail),
        http_requests: pipeline.requests,
        throughput_delivered_per_s: Math.round((delivered.length / ((last - t0) / 1000)) * 10) / 10,
        latency_first_try: summary(clean),
        latency_retried_once: summary(retried),
        note: 'latency = receiver got the successful request minus Kafka ack of the event; retry wait is linear 1 s',
      },
      null,
      2,
    ),
  );
  await pipeline.stopAll();
  await bus.close();
  await store.dropDatabase();
  await store.close();
  process.exit(0);
}

void main();
