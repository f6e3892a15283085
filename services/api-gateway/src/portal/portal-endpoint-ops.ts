import { ConflictError, ValidationError } from '@hookrail/domain';
import type { EndpointDoc, ProjectDoc } from '@hookrail/store';
import type {
  EndpointUpdateBody,
  ExpireSecretBody,
  PortalEndpointCreateBody,
  PortalEndpointUpdateBody,
} from '@hookrail/api-contract';
import type { GatewayDeps } from '../deps';
import {
  createEndpoint,
  deleteEndpoint,
  expireSecret,
  setEndpointStatus,
  updateEndpoint,
} from '../endpoints/endpoints.usecase';
import { createSubscription, updateSubscription } from '../subscriptions/subscriptions.usecase';
import type { PortalSession } from './portal-auth';

/**
 * Endpoint management through the portal, bound to the management API's endpoint use cases (the
 * same validation, secret handling, config-change and meta events). The portal adds only the
 * link's rules: a created endpoint belongs to the link (its `owner_id`, or listed on the link)
 * and is subscribed at once, so it receives the owner's events.
 */
export interface PortalEndpointOps {
  create(session: PortalSession, body: PortalEndpointCreateBody): Promise<EndpointDoc>;
  update(session: PortalSession, endpoint: EndpointDoc, body: PortalEndpointUpdateBody): Promise<EndpointDoc>;
  remove(session: PortalSession, endpoint: EndpointDoc): Promise<void>;
  pause(session: PortalSession, endpoint: EndpointDoc): Promise<EndpointDoc>;
  activate(session: PortalSession, endpoint: EndpointDoc): Promise<EndpointDoc>;
  expireSecret(session: PortalSession, endpoint: EndpointDoc, body: ExpireSecretBody): Promise<EndpointDoc>;
}

/** The portal's bindings of the gateway's endpoint use cases. */
export function gatewayEndpointOps(deps: GatewayDeps): PortalEndpointOps {
  return {
    async create(session, body) {
      const { event_types: eventTypes, ...input } = body;
      rejectOwnerChange(input);
      rejectCliType(input);
      checkEventTypes(session.project, eventTypes);
      const doc = await createEndpoint(deps, session.project, { ...input, owner_id: session.link.owner_id });
      // A link without an owner id shows its listed endpoints: list the new one so its creator sees it.
      if (!session.link.owner_id)
        await deps.store.portalLinks.addEndpoint(session.link.project_id, session.link._id, doc._id);
      await subscribe(deps, session.project, doc, eventTypes);
      return doc;
    },
    async update(session, endpoint, body) {
      const { event_types: eventTypes, ...input } = body;
      rejectOwnerChange(input);
      rejectCliType(input);
      checkEventTypes(session.project, eventTypes);
      // Checked before anything changes: an edit is applied whole or not at all.
      const subscriptions =
        eventTypes === undefined
          ? []
          : await deps.store.subscriptions.listByEndpoint(session.project._id, endpoint._id);
      if (subscriptions.length > 1)
        throw new ConflictError(
          'the endpoint has several subscriptions: their event types are set through the management API',
        );
      const doc = await updateEndpoint(deps, session.project, endpoint._id, input);
      if (eventTypes === undefined) return doc;
      if (subscriptions.length === 0)
        await createSubscription(deps, session.project, {
          name: `${doc.name} (portal)`.slice(0, 200),
          endpoint_id: doc._id,
          filter_config: { event_types: eventTypes },
        });
      else
        await updateSubscription(deps, session.project, subscriptions[0]._id, {
          filter_config: { event_types: eventTypes },
        });
      return doc;
    },
    remove: (session, endpoint) => deleteEndpoint(deps, session.project._id, endpoint._id),
    pause: (session, endpoint) =>
      setEndpointStatus(deps, session.project._id, endpoint._id, 'paused', 'portal'),
    activate: (session, endpoint) =>
      setEndpointStatus(deps, session.project._id, endpoint._id, 'active', 'portal'),
    expireSecret: (session, endpoint, body) => expireSecret(deps, session.project, endpoint._id, body),
  };
}

/**
 * Without a subscription an endpoint receives nothing. An incoming project's subscriptions name a
 * source, which a portal holder cannot see: those are made through the management API.
 */
async function subscribe(
  deps: GatewayDeps,
  project: ProjectDoc,
  endpoint: EndpointDoc,
  eventTypes: string[] | undefined,
): Promise<void> {
  if (project.type !== 'outgoing') return;
  try {
    await createSubscription(deps, project, {
      name: `${endpoint.name} (portal)`.slice(0, 200),
      endpoint_id: endpoint._id,
      filter_config: { event_types: eventTypes ?? ['*'] },
    });
  } catch (err) {
    // An endpoint that silently never receives is the defect this prevents: undo the create.
    await deleteEndpoint(deps, project._id, endpoint._id);
    throw err;
  }
}

function checkEventTypes(project: ProjectDoc, eventTypes: string[] | undefined): void {
  if (eventTypes === undefined) return;
  const blank = eventTypes.findIndex((t) => t.trim() === '');
  if (blank >= 0)
    throw new ValidationError(`invalid request body: event_types.${blank} must not be blank`, [
      { field: `event_types.${blank}`, message: 'must not be blank' },
    ]);
  if (project.type !== 'outgoing')
    throw new ValidationError('invalid request body: event_types is only for outgoing projects', [
      { field: 'event_types', message: 'is only for outgoing projects (incoming ones route by source)' },
    ]);
}

/** The link decides which endpoints its holder owns; moving one to another owner would escape it. */
function rejectOwnerChange(input: EndpointUpdateBody): void {
  if (input.owner_id !== undefined || input.clear?.includes('owner_id'))
    throw new ValidationError('owner_id is set by the portal link', [
      { field: 'owner_id', message: 'is not allowed through the portal' },
    ]);
}

/** A cli endpoint belongs to a developer's `hookrail listen`, not to a portal holder's receiver. */
function rejectCliType(input: EndpointUpdateBody): void {
  if (input.type === 'cli')
    throw new ValidationError('type: cli endpoints are made by hookrail listen', [
      { field: 'type', message: 'cli is not allowed through the portal (hookrail listen makes them)' },
    ]);
}
