import type { Router } from 'express';
import type { HookrailConfig } from '@hookrail/config';
import { fail } from '@hookrail/domain';
import type { Logger } from '@hookrail/telemetry';
import type { BoundOperation } from './call';
import { errorMapper } from './error-mapper';
import { jsonBody } from './json-body';
import { methodNotAllowed } from './method-not-allowed';
import { mountOperations, type GatewaySurface, type MountDeps } from './mount-operations';
import { surfaceRateLimiter } from './rate-limits';

export interface SurfaceDeps extends MountDeps {
  logger: Logger;
  bodyLimitBytes: number;
  rateLimits: HookrailConfig['rateLimits'];
}

/**
 * Serves one surface on `router` with what every surface shares: its rate limits (the contract's
 * table), the JSON body reader, its operations, 405 for a path served under other methods, 404 and
 * the error mapper. `under`: the part of the router's paths the surface owns (the console's pages
 * share its prefix and are served after it).
 */
export function serveSurface(
  router: Router,
  surface: GatewaySurface,
  operations: readonly BoundOperation[],
  deps: SurfaceDeps,
  under = '/',
): Router {
  const strangers = operations.filter((op) => op.surface !== surface).map((op) => op.operationId);
  if (strangers.length > 0) throw new Error(`not operations of ${surface}: ${strangers.join(', ')}`);
  const limiter = surfaceRateLimiter(surface, deps.rateLimits);
  if (limiter) router.use(limiter);
  router.use(under, jsonBody(deps.bodyLimitBytes));
  mountOperations(router, operations, deps);
  router.use(methodNotAllowed(operations));
  router.use(under, (req, res) => {
    res.status(404).json(fail(`no route for ${req.method} ${req.originalUrl.split('?')[0]}`));
  });
  router.use(errorMapper(deps.logger));
  return router;
}
