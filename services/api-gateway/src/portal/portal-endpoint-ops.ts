import { ValidationError } from '@hookrail/domain';
import type { EndpointDoc } from '@hookrail/store';
import type { GatewayDeps } from '../deps';
import { validate } from '../http/validator';
import { endpointCreateBody, endpointUpdateBody, expireSecretBody } from '../schemas/endpoint.schema';
import {
  createEndpoint,
  deleteEndpoint,
  expireSecret,
  setEndpointStatus,
  updateEndpoint,
  type EndpointBody,
} from '../usecases/endpoints.usecase';
import type { PortalSession } from './portal-auth';

/**
 * Endpoint management through the portal, bound to the management API's endpoint use cases (the
 * same validation, secret handling, config-change and meta events). The portal adds only the
 * link's rules: a created endpoint belongs to the link (its `owner_id`, or listed on the link).
 */
export interface PortalEndpointOps {
  create(session: PortalSession, body: unknown): Promise<EndpointDoc>;
  update(session: PortalSession, endpoint: EndpointDoc, body: unknown): Promise<EndpointDoc>;
  remove(session: PortalSession, endpoint: EndpointDoc): Promise<void>;
  pause(session: PortalSession, endpoint: EndpointDoc): Promise<EndpointDoc>;
  activate(session: PortalSession, endpoint: EndpointDoc): Promise<EndpointDoc>;
  expireSecret(session: PortalSession, endpoint: EndpointDoc, body: unknown): Promise<EndpointDoc>;
}

/** The portal's bindings of the gateway's endpoint use cases. */
export function gatewayEndpointOps(deps: GatewayDeps): PortalEndpointOps {
  return {
    async create(session, body) {
      const input = validate<EndpointBody>(endpointCreateBody, body);
      rejectOwnerChange(input);
      const doc = await createEndpoint(deps, session.project, { ...input, owner_id: session.link.owner_id });
      // A link without an owner id shows its listed endpoints: list the new one so its creator sees it.
      if (!session.link.owner_id)
        await deps.store.portalLinks.addEndpoint(session.link.project_id, session.link._id, doc._id);
      return doc;
    },
    async update(session, endpoint, body) {
      const input = validate<EndpointBody>(endpointUpdateBody, body);
      rejectOwnerChange(input);
      return updateEndpoint(deps, session.project, endpoint._id, input);
    },
    remove: (session, endpoint) => deleteEndpoint(deps, session.project._id, endpoint._id),
    pause: (session, endpoint) =>
      setEndpointStatus(deps, session.project._id, endpoint._id, 'paused', 'portal'),
    activate: (session, endpoint) =>
      setEndpointStatus(deps, session.project._id, endpoint._id, 'active', 'portal'),
    expireSecret: (session, endpoint, body) =>
      expireSecret(
        deps,
        session.project._id,
        endpoint._id,
        validate<{ expiration: number; secret?: string }>(expireSecretBody, body),
      ),
  };
}

/** The link decides which endpoints its holder owns; moving one to another owner would escape it. */
function rejectOwnerChange(input: EndpointBody): void {
  if (input.owner_id !== undefined)
    throw new ValidationError('owner_id is set by the portal link', [
      { field: 'owner_id', message: 'is not allowed through the portal' },
    ]);
}
