import { Router, type Request, type Response } from 'express';
import { object, portalOperations, type Operation } from '@hookrail/api-contract';
import { ok } from '@hookrail/domain';
import type { GatewayDeps } from '../deps';
import { jsonBody } from '../http/json-body';
import { methodNotAllowed } from '../http/method-not-allowed';
import { bindHandlers } from '@hookrail/api-contract';
import { validate, validateQuery } from '../http/validator';
import { authenticatePortal, portalCredential, requireManage } from './portal-auth';
import type { PortalEndpointOps } from './portal-endpoint-ops';
import { portalHandlers, type PortalHandler } from './portal.handlers';

/**
 * The portal API (`/portal-api`), served from the contract's portal operations: authenticate the
 * link, check its right, validate, run, wrap in the envelope. An id outside the link answers 404, a
 * management call on a link without `can_manage_endpoint` 403.
 */
export function portalApiRouter(deps: GatewayDeps, endpointOps: PortalEndpointOps): Router {
  const router = Router();
  router.use(jsonBody(deps.config.http.bodyLimitBytes));
  const operations = bindHandlers(Object.values(portalOperations), [
    portalHandlers(deps, endpointOps) as Record<string, PortalHandler>,
  ]);
  for (const op of operations) router[op.method](op.path, serve(deps, op));
  router.use(methodNotAllowed(operations));
  return router;
}

function serve(deps: GatewayDeps, op: Operation & { handler: PortalHandler }) {
  // The link's token may come as `?token=`: other query names are the page's own and are ignored.
  const querySchema = op.query ? object(op.query, [], { additionalProperties: true }) : undefined;
  return async (req: Request, res: Response) => {
    res.locals.route = `/portal-api${op.path}`;
    const session = await authenticatePortal(portalCredential(req.headers.authorization, req.query.token), {
      store: deps.store,
      now: deps.now,
    });
    res.locals.projectId = session.project._id;
    if (op.handler.access !== 'read') requireManage(session);
    const query = req.query as Record<string, unknown>;
    if (querySchema) validateQuery(querySchema, query);
    const body = op.body ? validate(op.body, req.body ?? {}) : undefined;
    let data: unknown;
    try {
      data = await op.handler.run({ session, params: req.params as Record<string, string>, query, body });
    } finally {
      if (op.handler.access === 'configure') {
        deps.cache.invalidate(session.project._id);
        await deps.bus.announceConfigChange(session.project._id);
      }
    }
    res.status(op.status).json(ok(op.message, data));
  };
}
