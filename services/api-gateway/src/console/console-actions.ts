import { Router, type Request } from 'express';
import { DomainError, ok } from '@hookrail/domain';
import { authorizeProject, type Principal } from '../auth/principal';
import type { GatewayDeps } from '../deps';
import { presentPortalDelivery } from '../portal/portal.presenter';
import { resendDeliveryOrThrow } from '../usecases/resend-delivery.usecase';

/**
 * The console's own actions, for what the management API does not offer: "retry now" of a
 * delivery still waiting for its next retry (the portal has the same; the API's resend takes only
 * failed and discarded ones). A console session only, with its anti-CSRF header; a project key's
 * session reaches its own project only.
 */
export function consoleActions(
  deps: GatewayDeps,
  session: (req: Request) => Promise<Principal | undefined>,
): Router {
  const actions = Router();
  actions.put('/projects/:projectID/eventdeliveries/:deliveryID/retry-now', async (req, res) => {
    const principal = await session(req);
    if (!principal) throw new DomainError('unauthenticated', 'not signed in');
    const projectId = authorizeProject(principal, String(req.params.projectID));
    const delivery = await resendDeliveryOrThrow(deps, projectId, String(req.params.deliveryID), 'retry_now');
    deps.logger.info({ projectId, deliveryId: delivery._id }, 'console retry now');
    res.json(ok('Event delivery sent again now', presentPortalDelivery(delivery, false)));
  });
  return actions;
}
