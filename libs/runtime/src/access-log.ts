import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { pinoHttp } from 'pino-http';
import type { Logger } from '@hookrail/telemetry';

/** Set by a router that knows them: the route template and the project the request acted on. */
export interface AccessLogLocals {
  route?: string;
  projectId?: string;
}

type Res = ServerResponse & { locals?: AccessLogLocals };

/**
 * One info line per HTTP request: method, route template (never the path itself, which can hold
 * a portal token or a source's mask id), status, latency and project id. Headers, query strings and
 * bodies are never logged. Health and metrics probes come before this middleware and are not logged.
 */
export function accessLog(logger: Logger, enabled: boolean): RequestHandler {
  // Nothing would be written: skip the per-request child logger and timing altogether.
  if (!enabled || !logger.isLevelEnabled('info')) return (_req, _res, next) => next();
  return pinoHttp({
    logger,
    quietReqLogger: true,
    quietResLogger: true,
    customAttributeKeys: { responseTime: 'latency_ms' },
    customProps: (req: IncomingMessage & { route?: { path?: string } }, res: Res) => ({
      method: req.method,
      route: res.locals?.route ?? req.route?.path ?? 'unmatched',
      status: res.statusCode,
      ...(res.locals?.projectId && { project_id: res.locals.projectId }),
    }),
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : 'info'),
    customSuccessMessage: () => 'request',
    customErrorMessage: () => 'request failed',
    serializers: { req: () => undefined, res: () => undefined },
  }) as unknown as RequestHandler;
}
