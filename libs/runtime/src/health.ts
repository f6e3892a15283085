import { Router } from 'express';
import type { Metrics } from '@hookrail/telemetry';

export type ReadinessCheck = () => Promise<Record<string, boolean>>;

/** `/healthz` (the process is alive), `/readyz` (its dependencies answer), `/metrics` (Prometheus). */
export function healthRouter(opts: { readiness: ReadinessCheck; metrics: Metrics }): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: true, message: 'alive', data: null });
  });
  router.get('/readyz', async (_req, res) => {
    const checks = await opts.readiness();
    const ready = Object.values(checks).every(Boolean);
    res
      .status(ready ? 200 : 503)
      .json({ status: ready, message: ready ? 'ready' : 'not ready', data: checks });
  });
  router.get('/metrics', async (_req, res) => {
    const { contentType, body } = await opts.metrics.render();
    res.setHeader('Content-Type', contentType);
    res.send(body);
  });
  return router;
}
