import express from 'express';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Metrics } from '@hookrail/telemetry';
import { healthProbes } from './health';

describe('healthProbes', () => {
  let server: Server;
  let base: string;
  let checks: Record<string, boolean>;

  beforeAll(async () => {
    const metrics = new Metrics('health-spec', { defaultMetrics: false });
    metrics.counter('health_spec_total', 'a counter the probe renders', []).inc();
    const app = express();
    app.use(healthProbes({ readiness: async () => checks, metrics }));
    app.use((req, res) => void res.status(404).json({ reached: `${req.method} ${req.path}` }));
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => (checks = { mongodb: true, kafka: true, started: true }));

  it('answers /healthz for GET and HEAD', async () => {
    const get = await fetch(`${base}/healthz`);
    expect(get.status).toBe(200);
    expect(await get.json()).toEqual({ status: true, message: 'alive', data: null });
    expect((await fetch(`${base}/healthz`, { method: 'HEAD' })).status).toBe(200);
  });

  it('answers /readyz 200 when every check passes and 503 naming the one that does not', async () => {
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: true, message: 'ready' });
    checks = { ...checks, kafka: false };
    const notReady = await fetch(`${base}/readyz`);
    expect(notReady.status).toBe(503);
    expect(await notReady.json()).toEqual({
      status: false,
      message: 'not ready',
      data: { mongodb: true, kafka: false, started: true },
    });
  });

  it("renders /metrics in Prometheus' text format", async () => {
    const res = await fetch(`${base}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await res.text()).toMatch(/^health_spec_total{service="health-spec"} 1$/m);
  });

  it('passes every other request on, other methods and paths below a probe included', async () => {
    for (const [method, path] of [
      ['GET', '/api/v1/projects'],
      ['POST', '/healthz'],
      ['DELETE', '/metrics'],
      ['GET', '/healthz/more'],
    ]) {
      const res = await fetch(`${base}${path}`, { method });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ reached: `${method} ${path}` });
    }
  });
});
