import type { ErrorRequestHandler } from 'express';
import { DomainError, fail, type ErrorCode } from '@hookrail/domain';
import type { Logger } from '@hookrail/telemetry';

/** The one place DomainError codes become HTTP statuses. */
const STATUS_OF: Record<ErrorCode, number> = {
  validation: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  unavailable: 503,
  internal: 500,
};

function statusOf(err: unknown): number {
  return err instanceof DomainError ? STATUS_OF[err.code] : 500;
}

export function errorMapper(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    const status = statusOf(err);
    // An outage of a dependency is logged once by whoever watches it, not once per request.
    if (status === 503) logger.debug({ err, method: req.method, path: req.path }, 'request failed');
    else if (status >= 500) logger.error({ err, method: req.method, path: req.path }, 'request failed');
    if (err instanceof DomainError) {
      if (err.code === 'unavailable') res.setHeader('Retry-After', '1');
      res.status(status).json(fail(err.message, err.details?.errors));
      return;
    }
    res.status(500).json(fail('internal error'));
  };
}
