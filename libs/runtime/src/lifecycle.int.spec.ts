import { startServiceProcess } from '@hookrail/testkit';

describe('a service process', () => {
  it('becomes ready against the real servers and exits 0 within 10 s of SIGTERM', async () => {
    const svc = await startServiceProcess('dispatcher');
    try {
      const t0 = Date.now();
      svc.child.kill('SIGTERM');
      expect(await svc.exited).toBe(0);
      expect(Date.now() - t0).toBeLessThan(10_000);
      // Structured JSON logs from pino, with the service name on every line.
      const lines = svc.logs
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { service: string; msg: string });
      expect(lines.every((l) => l.service === 'dispatcher')).toBe(true);
      expect(lines.map((l) => l.msg)).toEqual(
        expect.arrayContaining(['dispatcher started', 'dispatcher stopped']),
      );
    } finally {
      svc.child.kill('SIGKILL');
    }
  }, 60_000);
});
