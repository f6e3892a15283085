import type { RequestHandler } from 'express';
import { startServerSpan } from '@hookrail/telemetry';
import type { AccessLogLocals } from './access-log';

/**
 * One server span per HTTP request (after the health and metrics probes), continuing a caller's
 * `traceparent`: events accepted by ingest or the events API carry this trace on into Kafka, so
 * one trace follows an event from the request to each delivery attempt. Named by the route
 * template, never the path (it can hold a portal token or a source's mask id).
 */
export function httpSpans(): RequestHandler {
  return (req, res, next) => {
    const span = startServerSpan(req.method, req.headers);
    // Unrecorded (no exporter), the span only carries the trace id on: nothing to end it with.
    if (span.recording)
      res.once('finish', () => {
        const locals = res.locals as AccessLogLocals;
        const route = locals.route ?? (req.route as { path?: string } | undefined)?.path ?? 'unmatched';
        span.end(
          {
            'http.request.method': req.method,
            'http.route': route,
            'http.response.status_code': res.statusCode,
            ...(locals.projectId ? { 'hookrail.project_id': locals.projectId } : {}),
          },
          res.statusCode >= 500,
          `${req.method} ${route}`,
        );
      });
    span.run(next);
  };
}
