/**
 * Ingest alone: an HTTP source with no verifier or functions, N POSTs of a small JSON body at
 * concurrency C over keep-alive; each 200 means Kafka acknowledged the event (acks=-1). Ingest runs
 * as its own process against the local servers; reports accepted/s and p50/p99 latency.
 *
 *   npx tsx bench/ingest.bench.ts [--requests 20000] [--concurrency 64] [--body-bytes 512]
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  connectTestStore,
  deleteTopicsWithPrefix,
  TEST_MONGODB_URL,
  uniquePrefix,
  waitFor,
} from '@hookrail/testkit';
import { createHttpSource } from '../services/ingest/src/ingest-fixtures';
import { buildServices, serviceArgs } from './support/processes';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '20000' },
    concurrency: { type: 'string', default: '64' },
    'body-bytes': { type: 'string', default: '512' },
    port: { type: 'string', default: '19281' },
  },
});
const total = Number(values.requests);
const concurrency = Number(values.concurrency);
const port = Number(values.port);
const root = path.resolve(__dirname, '..');
const deadlineMs = 120_000;

async function main() {
  const store = await connectTestStore();
  const source = await createHttpSource(store);
  const prefix = uniquePrefix('bench-ingest');
  buildServices();
  const child = spawn(process.execPath, serviceArgs('ingest'), {
    cwd: root,
    env: {
      ...process.env,
      HOOKRAIL_HTTP_PORT: String(port),
      HOOKRAIL_MONGODB_URL: TEST_MONGODB_URL,
      HOOKRAIL_KAFKA_TOPIC_PREFIX: prefix,
      HOOKRAIL_KAFKA_PARTITIONS: '6',
      HOOKRAIL_LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  try {
    const base = `http://127.0.0.1:${port}`;
    await waitFor('ingest ready', async () => (await fetch(`${base}/readyz`).catch(() => null))?.ok, {
      timeoutMs: 60_000,
      intervalMs: 250,
    });
    const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
    const body = JSON.stringify({
      type: 'bench',
      pad: 'x'.repeat(Math.max(0, Number(values['body-bytes']) - 30)),
    });
    const post = () =>
      new Promise<number>((resolve) => {
        const req = http.request(
          `${base}/ingest/${source.mask_id}`,
          {
            method: 'POST',
            agent,
            headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', () => resolve(0));
        req.end(body);
      });

    // Warm-up: connections, JIT, producer metadata.
    await Promise.all(Array.from({ length: concurrency }, post));

    const latencies: number[] = [];
    const statuses = new Map<number, number>();
    let next = 0;
    const started = performance.now();
    const worker = async () => {
      while (next < total && performance.now() - started < deadlineMs) {
        next++;
        const t = performance.now();
        const status = await post();
        latencies.push(performance.now() - t);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))];
    const accepted = statuses.get(200) ?? 0;
    console.log(
      JSON.stringify(
        {
          requests: latencies.length,
          concurrency,
          body_bytes: Buffer.byteLength(body),
          statuses: Object.fromEntries(statuses),
          seconds: Number(seconds.toFixed(2)),
          accepted_per_second: Math.round(accepted / seconds),
          p50_ms: Number(pct(0.5).toFixed(2)),
          p99_ms: Number(pct(0.99).toFixed(2)),
        },
        null,
        2,
      ),
    );
    agent.destroy();
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    await store.close();
    await deleteTopicsWithPrefix(prefix);
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
