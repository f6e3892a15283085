import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Kafka, logLevel } from 'kafkajs';
import { BatchingPublisher } from '@hookrail/bus';
import type { Store } from '@hookrail/store';
import { createLogger, Metrics } from '@hookrail/telemetry';
import { connectTestStore, testBus, testConfig, uniquePrefix } from '@hookrail/testkit';
import { createHttpSource } from './ingest-fixtures';
import { definition } from './service';

/**
 * Kafka down after start-up: the service's start() runs with a real kafkajs producer whose broker
 * is a closed port, bypassing the readiness gate (which would otherwise hold start() back).
 */
describe('ingest when Kafka does not acknowledge', () => {
  const prefix = uniquePrefix('ingest-down');
  const kafka = new Kafka({
    brokers: ['127.0.0.1:1'],
    connectionTimeout: 300,
    retry: { retries: 0 },
    logLevel: logLevel.NOTHING,
  });
  let store: Store;
  let server: Server;
  let url: string;
  let stop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    store = await connectTestStore();
    const config = testConfig('ingest', {
      HOOKRAIL_KAFKA_BROKERS: '127.0.0.1:1',
      HOOKRAIL_KAFKA_TOPIC_PREFIX: prefix,
    });
    const app = express();
    const worker = await definition(config, { publishTimeoutMs: 2000 }).start({
      config,
      logger: createLogger({ service: 'ingest', level: 'silent' }),
      metrics: new Metrics('ingest', { defaultMetrics: false }),
      bus: testBus(prefix),
      store,
      publisher: new BatchingPublisher(kafka.producer(), prefix),
      app,
    });
    stop = worker ? () => worker.stop() : undefined;
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await stop?.();
    await new Promise((r) => server?.close(r));
    await store?.close();
  });

  it('answers 503 with Retry-After, never 2xx, and stores nothing', async () => {
    const source = await createHttpSource(store);
    const res = await fetch(`${url}/ingest/${source.mask_id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(await res.json()).toEqual({
      status: false,
      message: 'event could not be stored right now, retry later',
      data: { errors: [{ field: '', message: 'event could not be stored right now, retry later' }] },
    });
    expect(await store.events.count(source.project_id)).toBe(0);
  });
});
