import { startReceiver, startServiceProcess } from '@hookrail/testkit';

describe('a stopping service process', () => {
  it('exports the spans of its last requests before it exits on SIGTERM', async () => {
    const collector = await startReceiver();
    const svc = await startServiceProcess('meta-event', {
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      // the batch would be sent only in 10 minutes: only the flush on the way out can send it
      OTEL_BSP_SCHEDULE_DELAY: '600000',
    });
    const traceExports = () => collector.requests.filter((r) => r.path === '/v1/traces');
    try {
      // A request the service traces (health probes are not), then the stop.
      expect((await fetch(`${svc.url}/flush-probe`)).status).toBe(404);
      expect(traceExports()).toEqual([]);
      svc.child.kill('SIGTERM');
      expect(await svc.exited).toBe(0);
      expect(traceExports().length).toBeGreaterThan(0);
      // OTLP/JSON or protobuf: either way the span's method and the service's name are in it
      const sent = traceExports()
        .map((r) => r.body)
        .join('');
      expect(sent).toContain('GET');
      expect(sent).toContain('meta-event');
    } finally {
      svc.child.kill('SIGKILL');
      await collector.close();
    }
  }, 90_000);
});
