import type { Request, Response } from 'express';
import type { consoleOperations } from '@hookrail/api-contract';
import { DomainError } from '@hookrail/domain';
import { authorizeProject, type Principal } from '../auth/principal';
import type { GatewayDeps } from '../deps';
import { presentPortalDelivery } from '../portal/portal.presenter';
import { resendDeliveryOrThrow } from '../deliveries/resend-delivery.usecase';

/** A console operation's handler: it answers the envelope's data; cookies and headers go on `res`. */
export type ConsoleHandler = (req: Request, res: Response) => Promise<unknown>;
export type ConsoleHandlers = Record<keyof typeof consoleOperations, ConsoleHandler>;

/**
 * "Retry now" of a delivery still waiting for its next retry (the portal has the same; the API's
 * resend takes only failed and discarded ones). A console session only, with its anti-CSRF header;
 * a project key's session reaches its own project only.
 */
export function retryDeliveryNow(
  deps: GatewayDeps,
  session: (req: Request) => Promise<Principal | undefined>,
): ConsoleHandler {
  return async (req) => {
    const principal = await session(req);
    if (!principal) throw new DomainError('unauthenticated', 'not signed in');
    const projectId = authorizeProject(principal, String(req.params.projectID));
    const delivery = await resendDeliveryOrThrow(deps, projectId, String(req.params.deliveryID), 'retry_now');
    deps.logger.info({ projectId, deliveryId: delivery._id }, 'console retry now');
    return presentPortalDelivery(delivery, false);
  };
}
