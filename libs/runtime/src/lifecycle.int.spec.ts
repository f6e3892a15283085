import { spawn } from 'node:child_process';
import path from 'node:path';
import { TEST_MONGODB_URL, uniquePrefix, waitFor } from '@hookrail/testkit';

const root = path.resolve(__dirname, '../../..');

describe('a service process', () => {
  it('becomes ready against the real servers and exits 0 within 10 s of SIGTERM', async () => {
    const port = 18000 + Math.floor(Math.random() * 1000);
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(root, 'services/dispatcher/src/main.ts')],
      {
        cwd: root,
        env: {
          ...process.env,
          HOOKRAIL_HTTP_PORT: String(port),
          HOOKRAIL_MONGODB_URL: TEST_MONGODB_URL,
          HOOKRAIL_KAFKA_TOPIC_PREFIX: uniquePrefix('proc'),
          HOOKRAIL_KAFKA_PARTITIONS: '3',
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
        'dispatcher ready',
        async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200,
        {
          timeoutMs: 45_000,
          intervalMs: 250,
        },
      );
      const t0 = Date.now();
      child.kill('SIGTERM');
      const code = await exited;
      expect(code).toBe(0);
      expect(Date.now() - t0).toBeLessThan(10_000);
      // Structured JSON logs from pino, with the service name on every line.
      const lines = logs
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { service: string; msg: string });
      expect(lines.every((l) => l.service === 'dispatcher')).toBe(true);
      expect(lines.map((l) => l.msg)).toEqual(
        expect.arrayContaining(['dispatcher started', 'dispatcher stopped']),
      );
    } finally {
      child.kill('SIGKILL');
    }
  }, 60_000);
});
