import { startService, type RunningService } from './index';
import {
  captureLogs,
  gatedProxy,
  testConfig,
  uniquePrefix,
  waitFor,
  migrateTestDatabase,
} from '@hookrail/testkit';

describe('a started service logs a dependency outage once, and its recovery', () => {
  // Services start only on a migrated database; the proxied ones reach `hookrail-test` through it.
  beforeAll(() =>
    Promise.all([
      migrateTestDatabase(),
      migrateTestDatabase('mongodb://127.0.0.1:27017/hookrail-test?retryWrites=false'),
    ]),
  );

  let svc: RunningService | undefined;
  afterAll(async () => {
    await svc?.stop();
  });

  it('MongoDB cut off then back: one "unreachable" line, one "recovered" line with the outage length', async () => {
    const proxy = await gatedProxy({ host: '127.0.0.1', port: 27017 }, true);
    const logs = captureLogs('retry-scheduler');
    try {
      svc = await startService({
        config: testConfig('retry-scheduler', {
          HOOKRAIL_MONGODB_URL: `mongodb://127.0.0.1:${proxy.port}/hookrail-test?directConnection=true`,
          HOOKRAIL_KAFKA_TOPIC_PREFIX: uniquePrefix('watch'),
          HOOKRAIL_DEPENDENCY_CHECK_MS: '200',
        }),
        logger: logs.logger,
        start: async () => undefined,
      });
      await svc.started;
      const messages = () => logs.lines().map((l) => l.msg);
      proxy.shut();
      await waitFor('outage logged', () => messages().includes('mongodb unreachable'), { timeoutMs: 20_000 });
      const metrics = await (await fetch(`${svc.url}/metrics`)).text();
      expect(metrics).toMatch(/hookrail_dependency_up\{dependency="mongodb",[^}]*\} 0/);
      await new Promise((r) => setTimeout(r, 1000));
      proxy.open();
      const recovered = await waitFor(
        'recovery logged',
        () => logs.lines().find((l) => l.msg === 'mongodb recovered'),
        { timeoutMs: 30_000 },
      );
      expect(recovered).toMatchObject({ level: 'info', dependency: 'mongodb' });
      expect(recovered.down_for_ms).toBeGreaterThanOrEqual(1000);
      expect(messages().filter((m) => m === 'mongodb unreachable')).toHaveLength(1);
      expect(messages()).not.toContain('kafka unreachable');
    } finally {
      await proxy.close();
    }
  });

  it('a busy MongoDB (every answer 3 s late) is neither unreachable nor unready; one that stops answering is', async () => {
    const proxy = await gatedProxy({ host: '127.0.0.1', port: 27017 }, true);
    const logs = captureLogs('retry-scheduler');
    const busy = await startService({
      config: testConfig('retry-scheduler', {
        HOOKRAIL_MONGODB_URL: `mongodb://127.0.0.1:${proxy.port}/hookrail-test?directConnection=true`,
        HOOKRAIL_KAFKA_TOPIC_PREFIX: uniquePrefix('busy'),
        HOOKRAIL_DEPENDENCY_CHECK_MS: '200',
      }),
      logger: logs.logger,
      start: async () => undefined,
    });
    try {
      await busy.started;
      // past the 2 s a check waits: before, every such check was an outage and /readyz a 503
      proxy.slow(3_000);
      const deadline = Date.now() + 5_000;
      while (Date.now() < deadline) {
        expect((await fetch(`${busy.url}/readyz`)).status).toBe(200);
        await new Promise((r) => setTimeout(r, 500));
      }
      expect(logs.lines().map((l) => l.msg)).not.toContain('mongodb unreachable');
      proxy.slow(60_000); // answers no more, connections open: unreachable once 15 s have passed
      await waitFor('outage logged', () => logs.lines().some((l) => l.msg === 'mongodb unreachable'), {
        timeoutMs: 30_000,
      });
      expect((await fetch(`${busy.url}/readyz`)).status).toBe(503);
    } finally {
      await proxy.close(); // first: a stop would otherwise wait for the held answers
      await busy.stop();
    }
  }, 90_000);
});
