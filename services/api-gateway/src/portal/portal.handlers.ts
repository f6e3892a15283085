import { ConflictError, NotFoundError } from '@hookrail/domain';
import { EVENT_TYPE_LIMITS, type portalOperations } from '@hookrail/api-contract';
import { replayEvent } from '@hookrail/operations';
import {
  createdRangeOf,
  parsePageQuery,
  type DeliveryListFilter,
  type DeliveryStatus,
  type DeliveryDoc,
  type EndpointDoc,
} from '@hookrail/store';
import type { GatewayDeps } from '../deps';
import type { Handlers } from '../http/call';
import { publishEvent } from '../events/publish-event.usecase';
import { resendDeliveryOrThrow } from '../deliveries/resend-delivery.usecase';
import { sentBody } from '../deliveries/request-body';
import type { PortalSession } from './portal-auth';
import type { PortalEndpointOps } from './portal-endpoint-ops';
import {
  eventTypeCatalog,
  presentPortalCatalog,
  presentPortalDelivery,
  presentPortalEndpoint,
  presentPortalEvent,
  presentPortalLink,
} from './portal.presenter';
import { linkEndpoint, linkEndpointIds, linkEndpoints, scopedEndpointIds } from './portal-scope';

/** A query text parameter, '' as none. */
const textOf = (query: Record<string, unknown>, key: string) =>
  typeof query[key] === 'string' && query[key] ? query[key] : undefined;
/** The list's time window (the contract checked both are date-times). */
const rangeOf = (query: Record<string, unknown>) =>
  createdRangeOf(textOf(query, 'startDate'), textOf(query, 'endDate'));

/** A link's catalog reads at most this many (endpoint, type) documents. */
const CATALOG_LIMIT = 2_000;

type PortalHandlers = Handlers<typeof portalOperations>;
type EndpointHandlers = Pick<
  PortalHandlers,
  | 'portalGetLink'
  | 'portalListEndpoints'
  | 'portalGetEndpoint'
  | 'portalCreateEndpoint'
  | 'portalUpdateEndpoint'
  | 'portalDeleteEndpoint'
  | 'portalPauseEndpoint'
  | 'portalActivateEndpoint'
  | 'portalSendTestEvent'
  | 'portalExpireEndpointSecret'
>;
type EventHandlers = Pick<PortalHandlers, 'portalListEvents' | 'portalGetEvent' | 'portalReplayEvent'>;
type CatalogHandlers = Pick<PortalHandlers, 'portalListEventTypes' | 'portalListEventCatalog'>;
type DeliveryHandlers = Pick<
  PortalHandlers,
  'portalListDeliveries' | 'portalGetDelivery' | 'portalResendDelivery' | 'portalForceResendDelivery'
>;

/** Everything a link's holder may do, each query limited to the link's endpoints at request time. */
export function portalHandlers(deps: GatewayDeps, endpointOps: PortalEndpointOps): PortalHandlers {
  return {
    ...endpointHandlers(deps, endpointOps),
    ...eventHandlers(deps),
    ...catalogHandlers(deps),
    ...deliveryHandlers(deps),
  };
}

/** The link itself and its endpoints. */
function endpointHandlers(deps: GatewayDeps, endpointOps: PortalEndpointOps): EndpointHandlers {
  const { store, box } = deps;
  // One subscription query per endpoint: a link shows one customer's few endpoints.
  const present = async (e: EndpointDoc) =>
    presentPortalEndpoint(e, box, deps.now(), await store.subscriptions.listByEndpoint(e.project_id, e._id));
  const endpointOf = (s: PortalSession, params: Record<string, string>) =>
    linkEndpoint(store, s, params.endpointID);

  return {
    portalGetLink: async ({ actor: session }) =>
      presentPortalLink(session.link, (await linkEndpoints(store, session)).length, session.project),
    portalListEndpoints: async ({ actor: session }) =>
      Promise.all((await linkEndpoints(store, session)).map(present)),
    portalGetEndpoint: async ({ actor: session, params }) => present(await endpointOf(session, params)),
    portalCreateEndpoint: async ({ actor: session, body }) =>
      present(await endpointOps.create(session, body)),
    portalUpdateEndpoint: async ({ actor: session, params, body }) =>
      present(await endpointOps.update(session, await endpointOf(session, params), body)),
    portalDeleteEndpoint: async ({ actor: session, params }) => {
      await endpointOps.remove(session, await endpointOf(session, params));
      return null;
    },
    portalPauseEndpoint: async ({ actor: session, params }) =>
      present(await endpointOps.pause(session, await endpointOf(session, params))),
    portalActivateEndpoint: async ({ actor: session, params }) =>
      present(await endpointOps.activate(session, await endpointOf(session, params))),
    // A real event aimed at the endpoint (pick a type its subscriptions accept).
    portalSendTestEvent: async ({ actor: session, params, body }) => {
      const endpoint = await endpointOf(session, params);
      const eventType = body.event_type ?? 'hookrail.test';
      const data = body.data ?? { message: 'Test event from the webhooks portal', sent_at: deps.now() };
      return publishEvent(deps, session.project, {
        mode: 'single',
        body: { endpoint_id: endpoint._id, event_type: eventType.trim(), data },
      });
    },
    portalExpireEndpointSecret: async ({ actor: session, params, body }) =>
      present(await endpointOps.expireSecret(session, await endpointOf(session, params), body)),
  };
}

/** The events aimed at the link's endpoints. */
function eventHandlers(deps: GatewayDeps): EventHandlers {
  const { store } = deps;
  const eventOf = async (s: PortalSession, id: string) => {
    const ids = await scopedEndpointIds(store, s, undefined);
    const event = await store.events.findTargeting(s.link.project_id, id, ids);
    if (!event) throw new NotFoundError('event');
    return { event, ids };
  };

  return {
    portalListEvents: async ({ actor: session, query }) => {
      const ids = await scopedEndpointIds(store, session, query.endpointId);
      const page = await store.events.page(
        session.link.project_id,
        { endpointIds: ids, createdRange: rangeOf(query), search: textOf(query, 'query') },
        parsePageQuery(query),
      );
      const visible = new Set(ids);
      return { ...page, content: page.content.map((e) => presentPortalEvent(e, visible)) };
    },
    portalGetEvent: async ({ actor: session, params }) => {
      const { event, ids } = await eventOf(session, params.eventID);
      return presentPortalEvent(event, new Set(ids));
    },
    // To the link's endpoints only (never to another customer's): managing links.
    portalReplayEvent: async ({ actor: session, params }) => {
      const { event, ids } = await eventOf(session, params.eventID);
      const out = await replayEvent(deps, session.link.project_id, event._id, new Set(ids));
      if (out.kind !== 'replayed')
        throw new ConflictError('the event has no delivery to your endpoints to replay');
      return { event_id: event._id, deliveries: out.deliveries.map((d) => presentPortalDelivery(d, false)) };
    },
  };
}

/** The event types the link's endpoints were sent, and the project's catalog. */
function catalogHandlers({ store }: GatewayDeps): CatalogHandlers {
  return {
    // From the catalog the dispatchers keep.
    portalListEventTypes: async ({ actor: session }) =>
      eventTypeCatalog(
        await store.eventTypes.listForEndpoints(
          session.link.project_id,
          await linkEndpointIds(store, session),
          CATALOG_LIMIT,
        ),
      ),
    portalListEventCatalog: async ({ actor: session }) =>
      presentPortalCatalog(
        await store.eventCatalog.listAll(session.link.project_id, EVENT_TYPE_LIMITS.perProject),
      ),
  };
}

/** The deliveries to the link's endpoints, and sending one again. */
function deliveryHandlers(deps: GatewayDeps): DeliveryHandlers {
  const { store } = deps;
  // A single delivery: with its attempts and the body they sent.
  const detail = async (d: DeliveryDoc) => ({
    ...presentPortalDelivery(d, true),
    ...(await sentBody(store, d)),
  });
  const deliveryOf = async (s: PortalSession, id: string) => {
    const ids = await scopedEndpointIds(store, s, undefined);
    const delivery = await store.deliveries.findToEndpoints(s.link.project_id, id, ids);
    if (!delivery) throw new NotFoundError('event delivery');
    return delivery;
  };

  return {
    portalListDeliveries: async ({ actor: session, query }) => {
      const ids = await scopedEndpointIds(store, session, query.endpointId);
      const filter: DeliveryListFilter = {
        endpointIds: ids,
        createdRange: rangeOf(query),
        search: textOf(query, 'query'),
      };
      if (typeof query.eventId === 'string' && query.eventId) filter.eventId = query.eventId;
      if (typeof query.status === 'string' && query.status)
        filter.statuses = [query.status as DeliveryStatus];
      const page = await store.deliveries.page(session.link.project_id, filter, parsePageQuery(query));
      return { ...page, content: page.content.map((d) => presentPortalDelivery(d, false)) };
    },
    portalGetDelivery: async ({ actor: session, params }) =>
      detail(await deliveryOf(session, params.deliveryID)),
    // Also one still in Retry: its holder may want it now rather than at the next backoff.
    portalResendDelivery: async ({ actor: session, params }) => {
      const delivery = await deliveryOf(session, params.deliveryID);
      return detail(await resendDeliveryOrThrow(deps, session.link.project_id, delivery._id, 'retry_now'));
    },
    // A management right; never a delivery that succeeded: the receiver has it, and only the
    // provider (the management API, the console) may send it again.
    portalForceResendDelivery: async ({ actor: session, params }) => {
      const delivery = await deliveryOf(session, params.deliveryID);
      if (delivery.status === 'Success')
        throw new ConflictError(
          'this delivery succeeded: the portal retries only failed or discarded deliveries (ask the provider to send a delivered one again)',
        );
      return detail(await resendDeliveryOrThrow(deps, session.link.project_id, delivery._id, 'force'));
    },
  };
}
