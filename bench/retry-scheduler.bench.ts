/**
 * Firing accuracy of the retry-scheduler: publishes retry messages at a steady rate (default
 * 1,000/s for 30 s, each due 1-3 s later), consumes what the scheduler fires and reports how late
 * each arrived after its due time. The scheduler runs as its own process against the local servers.
 *
 *   npx tsx bench/retry-scheduler.bench.ts [--rate 1000] [--seconds 30] [--replicas 1]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { DeliveryMessage, RetryMessage } from '@hookrail/bus';
import { newId, newProjectId } from '@hookrail/domain';
import { deleteTopicsWithPrefix, TEST_MONGODB_URL, testBus, uniquePrefix, waitFor } from '@hookrail/testkit';
import { buildServices, serviceArgs } from './support/processes';

const { values } = parseArgs({
  options: {
    rate: { type: 'string', default: '1000' },
    seconds: { type: 'string', default: '30' },
    replicas: { type: 'string', default: '1' },
  },
});
const rate = Number(values.rate);
const seconds = Number(values.seconds);
const root = path.resolve(__dirname, '..');
const prefix = uniquePrefix('bench-rs');

function startScheduler(i: number): ChildProcess {
  const child = spawn(process.execPath, serviceArgs('retry-scheduler'), {
    cwd: root,
    env: {
      ...process.env,
      HOOKRAIL_HTTP_PORT: String(19300 + i),
      HOOKRAIL_MONGODB_URL: TEST_MONGODB_URL,
      HOOKRAIL_KAFKA_TOPIC_PREFIX: prefix,
      HOOKRAIL_KAFKA_PARTITIONS: '6',
      HOOKRAIL_LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return child;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function main(): Promise<void> {
  const bus = testBus(prefix);
  await bus.ensureTopics();
  const publisher = await bus.connectPublisher();
  const lateness: number[] = [];
  const seen = new Set<string>();
  /** The due time each retry was scheduled for: lateness is measured against it. */
  const dueAt = new Map<string, number>();
  let duplicates = 0;
  await bus.consume('bench-observer', {
    topic: 'deliveries',
    concurrency: 500,
    partitionsConcurrently: 6,
    handle: async (m: DeliveryMessage) => {
      if (seen.has(m.delivery_id)) duplicates++;
      seen.add(m.delivery_id);
      lateness.push(Date.now() - (dueAt.get(m.delivery_id) ?? NaN));
    },
  });
  buildServices();
  const children = Array.from({ length: Number(values.replicas) }, (_, i) => startScheduler(i));
  await Promise.all(
    children.map((_, i) =>
      waitFor('scheduler ready', async () => (await fetch(`http://127.0.0.1:${19300 + i}/readyz`)).ok, {
        timeoutMs: 60_000,
        intervalMs: 250,
      }),
    ),
  );

  const total = rate * seconds;
  const tickMs = 50;
  const perTick = (rate * tickMs) / 1000;
  const started = Date.now();
  const PROJECT = newProjectId();
  let sent = 0;
  while (sent < total) {
    const target = Math.min(total, Math.floor(((Date.now() - started) / 1000) * rate) + perTick);
    const batch: RetryMessage[] = [];
    for (; sent < target; sent++) {
      const [id, due] = [newId(), Date.now() + 1000 + Math.random() * 2000];
      dueAt.set(id, due);
      batch.push({
        delivery_id: id,
        project_id: PROJECT,
        endpoint_id: `ep-${sent % 200}`,
        event_id: newId(),
        due_at: new Date(due).toISOString(),
        reason: 'failed',
      });
    }
    void publisher.publish('retries', batch);
    await new Promise((r) => setTimeout(r, tickMs));
  }
  const publishedIn = (Date.now() - started) / 1000;
  await waitFor('every retry to fire', () => seen.size >= total, {
    timeoutMs: 120_000,
    intervalMs: 500,
  }).catch((err: Error) => console.error(err.message));
  const sorted = [...lateness].sort((a, b) => a - b);
  console.log(
    JSON.stringify(
      {
        scheduled: total,
        publish_rate_per_s: Math.round(total / publishedIn),
        fired: seen.size,
        duplicates,
        lateness_ms: {
          p50: percentile(sorted, 50),
          p90: percentile(sorted, 90),
          p99: percentile(sorted, 99),
          max: sorted[sorted.length - 1],
        },
        replicas: children.length,
        note: 'lateness = time the fired DeliveryMessage reached a consumer minus its due time',
      },
      null,
      2,
    ),
  );
  children.forEach((c) => c.kill('SIGTERM'));
  await bus.close();
  await deleteTopicsWithPrefix(prefix);
  process.exit(0);
}

void main();
