import { startService, type RunningService } from './index';
import { gatedProxy, testConfig, uniquePrefix, waitFor, migrateTestDatabase } from '@hookrail/testkit';

const readyz = async (svc: RunningService) => {
  const res = await fetch(`${svc.url}/readyz`);
  return { status: res.status, body: (await res.json()) as { data: Record<string, boolean> } };
};

describe('/readyz', () => {
  // Services start only on a migrated database; the proxied ones reach `hookrail-test` through it.
  beforeAll(() =>
    Promise.all([
      migrateTestDatabase(),
      migrateTestDatabase('mongodb://127.0.0.1:27017/hookrail-test?retryWrites=false'),
    ]),
  );

  const services: RunningService[] = [];
  afterAll(async () => {
    await Promise.all(services.map((s) => s.stop()));
  });

  it('says not ready while MongoDB is unreachable and turns ready once it answers', async () => {
    const proxy = await gatedProxy({ host: '127.0.0.1', port: 27017 });
    try {
      const svc = await startService({
        config: testConfig('retry-scheduler', {
          HOOKRAIL_MONGODB_URL: `mongodb://127.0.0.1:${proxy.port}/hookrail-test`,
          HOOKRAIL_KAFKA_TOPIC_PREFIX: uniquePrefix('ready'),
        }),
        start: async ({ app }) => void app.post('/work', (_req, res) => void res.status(201).json({})),
      });
      services.push(svc);
      expect((await fetch(`${svc.url}/healthz`)).status).toBe(200);
      const before = await readyz(svc);
      expect(before.status).toBe(503);
      expect(before.body.data.mongodb).toBe(false);
      // The service's own routes are not mounted yet: 503 with Retry-After (retried), not 404.
      const early = await fetch(`${svc.url}/work`, { method: 'POST' });
      expect(early.status).toBe(503);
      expect(early.headers.get('retry-after')).toBe('1');
      expect(((await early.json()) as { status: boolean }).status).toBe(false);

      proxy.open();
      const after = await waitFor(
        'ready',
        async () => {
          const r = await readyz(svc);
          return r.status === 200 ? r : undefined;
        },
        { timeoutMs: 30_000, intervalMs: 300 },
      );
      expect(after.body.data).toEqual({ mongodb: true, kafka: true, started: true });
      expect((await fetch(`${svc.url}/work`, { method: 'POST' })).status).toBe(201);
    } finally {
      await proxy.close();
    }
  });

  it('says not ready while Kafka is unreachable', async () => {
    const svc = await startService({
      config: testConfig('meta-event', {
        HOOKRAIL_KAFKA_BROKERS: '127.0.0.1:1',
        HOOKRAIL_KAFKA_TOPIC_PREFIX: uniquePrefix('ready'),
      }),
      start: async () => undefined,
    });
    services.push(svc);
    // Give it time to reach MongoDB; it must still refuse readiness because of Kafka.
    await waitFor('mongodb reachable', async () => (await readyz(svc)).body.data.mongodb, {
      timeoutMs: 15_000,
    });
    const r = await readyz(svc);
    expect(r.status).toBe(503);
    expect(r.body.data.kafka).toBe(false);
    expect(svc.isReady()).toBe(false);
  });

  it('serves Prometheus metrics', async () => {
    const svc = await startService({
      config: testConfig('source-consumer', { HOOKRAIL_KAFKA_TOPIC_PREFIX: uniquePrefix('metrics') }),
      start: async () => undefined,
    });
    services.push(svc);
    const res = await fetch(`${svc.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    expect(await res.text()).toMatch(/process_cpu_seconds_total\{service="source-consumer"\}/);
  });
});
