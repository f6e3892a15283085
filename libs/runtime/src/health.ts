import type { RequestHandler } from 'express';
import type { Metrics } from '@hookrail/telemetry';

export type ReadinessCheck = () => Promise<Record<string, boolean>>;

/**
 * `/healthz` (the process is alive), `/readyz` (its dependencies answer), `/metrics` (Prometheus),
 * for GET and HEAD. One lookup of the path instead of a router: mounted first, the probes' router
 * had every request of a busy gateway tried against its three patterns before its own route.
 */
export function healthProbes(opts: { readiness: ReadinessCheck; metrics: Metrics }): RequestHandler {
  const probes = new Map<string, RequestHandler>([
    ['/healthz', (_req, res) => void res.json({ status: true, message: 'alive', data: null })],
    [
      '/readyz',
      async (_req, res) => {
        const checks = await opts.readiness();
        const ready = Object.values(checks).every(Boolean);
        res
          .status(ready ? 200 : 503)
          .json({ status: ready, message: ready ? 'ready' : 'not ready', data: checks });
      },
    ],
    [
      '/metrics',
      async (_req, res) => {
        const { contentType, body } = await opts.metrics.render();
        res.setHeader('Content-Type', contentType);
        res.send(body);
      },
    ],
  ]);
  return (req, res, next) => {
    const probe = req.method === 'GET' || req.method === 'HEAD' ? probes.get(req.path) : undefined;
    return probe ? probe(req, res, next) : next();
  };
}
