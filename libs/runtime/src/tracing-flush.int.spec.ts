import { spawn } from 'node:child_process';
import path from 'node:path';
import { startReceiver, TEST_MONGODB_URL, uniquePrefix, waitFor } from '@hookrail/testkit';

const root = path.resolve(__dirname, '../../..');

describe('a stopping service process', () => {
  it('exports the spans of its last requests before it exits on SIGTERM', async () => {
    const collector = await startReceiver();
    const port = 19000 + Math.floor(Math.random() * 1000);
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(root, 'services/meta-event/src/main.ts')],
      {
        cwd: root,
        env: {
          ...process.env,
          HOOKRAIL_HTTP_PORT: String(port),
          HOOKRAIL_MONGODB_URL: TEST_MONGODB_URL,
          HOOKRAIL_KAFKA_TOPIC_PREFIX: uniquePrefix('flush'),
          HOOKRAIL_KAFKA_PARTITIONS: '1',
          OTEL_TRACES_EXPORTER: 'otlp',
          OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const logs: string[] = [];
    child.stdout.on('data', (d: Buffer) => logs.push(d.toString()));
    child.stderr.on('data', (d: Buffer) => logs.push(d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await waitFor(
        'service ready',
        async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200,
        {
          timeoutMs: 45_000,
          intervalMs: 250,
        },
      );
      // A request the service traces (health probes are not), then at once the stop: the batch
      // exporter would send it only seconds later.
      expect((await fetch(`http://127.0.0.1:${port}/flush-probe`)).status).toBe(404);
      expect(collector.requests.filter((r) => r.path === '/v1/traces')).toEqual([]);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      const exports = collector.requests.filter((r) => r.path === '/v1/traces');
      expect(exports.length).toBeGreaterThan(0);
      // OTLP/JSON or protobuf: either way the span's method and the service's name are in it
      const sent = exports.map((r) => r.body).join('');
      expect(sent).toContain('GET');
      expect(sent).toContain('meta-event');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await collector.close();
      if (child.exitCode !== 0) console.log(logs.join('').slice(-4000));
    }
  }, 90_000);
});
