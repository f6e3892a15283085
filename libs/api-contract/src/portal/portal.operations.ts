import { Type } from '@sinclair/typebox';
import { defineOperations, type OperationShape } from '../operation';
import { enumOf, str } from '../schemas/common.schema';
import { expireSecretBody } from '../schemas/endpoint.schema';
import { DELIVERY_STATUSES, eventAcceptedResponse } from '../schemas/event.schema';
import { createdRangeQuery, pageQuery, searchQuery } from '../schemas/pagination.schema';
import {
  eventTypeSeenResponse,
  portalCatalogEntry,
  portalDeliveryResponse,
  portalEndpointCreateBody,
  portalEndpointResponse,
  portalEndpointUpdateBody,
  portalEventResponse,
  portalLinkView,
  portalReplayResponse,
} from '../schemas/portal.schema';
import { portalTestEventBody } from '../schemas/portal-link.schema';

const tag = 'Portal';
const ENDPOINT = '/endpoints/:endpointID';
const DELIVERY = '/eventdeliveries/:deliveryID';
const endpointFilter = str({ description: "only what was sent to this endpoint of the link's" });
const payloadSearch = (what: string) =>
  searchQuery(
    `${what} whose payload contains every word of this text, ignoring case; read in bounded steps, so a page may hold fewer items than perPage (even none) with has_next_page: follow next_page_cursor`,
  );

const endpointChange = <const P extends string>(path: P, summary: string, message: string) =>
  ({
    method: 'put',
    path,
    summary,
    tag,
    auth: 'portal',
    status: 202,
    message,
    response: portalEndpointResponse,
  }) satisfies OperationShape;

/**
 * The portal API (`/portal-api`): what a portal link's holder may do, each query limited to the
 * link's endpoints at request time. Changes to endpoints need a link with `can_manage_endpoint`.
 */
export const portalOperations = defineOperations('portal', {
  portalGetLink: {
    method: 'get',
    path: '/link',
    summary: 'The link itself: its name, rights and how many endpoints it shows',
    tag,
    auth: 'portal',
    status: 200,
    message: 'Portal link fetched',
    response: portalLinkView,
  },
  portalListEndpoints: {
    method: 'get',
    path: '/endpoints',
    summary: "The link's endpoints",
    tag,
    auth: 'portal',
    status: 200,
    message: 'Endpoints fetched',
    response: Type.Array(portalEndpointResponse),
  },
  portalGetEndpoint: {
    method: 'get',
    path: ENDPOINT,
    summary: "One of the link's endpoints",
    tag,
    auth: 'portal',
    status: 200,
    message: 'Endpoint fetched',
    response: portalEndpointResponse,
  },
  portalCreateEndpoint: {
    method: 'post',
    path: '/endpoints',
    summary: 'Add an endpoint to the link, subscribed at once to the event types given (default all)',
    tag,
    auth: 'portal',
    body: portalEndpointCreateBody,
    status: 201,
    message: 'Endpoint created',
    response: portalEndpointResponse,
  },
  portalUpdateEndpoint: {
    ...endpointChange(ENDPOINT, "Update one of the link's endpoints", 'Endpoint updated'),
    body: portalEndpointUpdateBody,
  },
  portalDeleteEndpoint: {
    method: 'delete',
    path: ENDPOINT,
    summary: "Delete one of the link's endpoints",
    tag,
    auth: 'portal',
    status: 200,
    message: 'Endpoint deleted',
    response: Type.Null(),
  },
  portalPauseEndpoint: endpointChange(
    `${ENDPOINT}/pause`,
    'Pause an endpoint: deliveries are held, nothing is lost',
    'Endpoint paused',
  ),
  portalActivateEndpoint: endpointChange(
    `${ENDPOINT}/activate`,
    'Activate an endpoint: held deliveries resume',
    'Endpoint activated',
  ),
  portalSendTestEvent: {
    method: 'post',
    path: `${ENDPOINT}/test-event`,
    summary:
      "Send a test event to the endpoint, delivered, signed and recorded like any other (its subscriptions' event-type filters apply)",
    tag,
    auth: 'portal',
    body: portalTestEventBody,
    status: 201,
    message: 'Test event sent',
    response: eventAcceptedResponse,
  },
  portalExpireEndpointSecret: {
    method: 'put',
    path: `${ENDPOINT}/expire_secret`,
    summary: 'Roll the endpoint secret: the current one expires after `expiration` seconds',
    tag,
    auth: 'portal',
    body: expireSecretBody,
    status: 200,
    message: 'Endpoint secret expired',
    response: portalEndpointResponse,
  },
  portalListEvents: {
    method: 'get',
    path: '/events',
    summary: "Events sent to the link's endpoints",
    tag,
    auth: 'portal',
    query: {
      ...pageQuery,
      endpointId: endpointFilter,
      ...createdRangeQuery,
      query: payloadSearch('events'),
    },
    paginated: true,
    status: 200,
    message: 'Events fetched',
    response: portalEventResponse,
  },
  portalGetEvent: {
    method: 'get',
    path: '/events/:eventID',
    summary: "An event sent to the link's endpoints",
    tag,
    auth: 'portal',
    status: 200,
    message: 'Event fetched',
    response: portalEventResponse,
  },
  portalReplayEvent: {
    method: 'put',
    path: '/events/:eventID/replay',
    summary: "Replay an event to the link's endpoints only",
    tag,
    auth: 'portal',
    status: 200,
    message: 'Event replayed',
    response: portalReplayResponse,
  },
  portalListEventTypes: {
    method: 'get',
    path: '/event-types',
    summary: "The event types the link's endpoints have been sent, with when each was last sent",
    tag,
    auth: 'portal',
    status: 200,
    message: 'Event types fetched',
    response: Type.Array(eventTypeSeenResponse),
  },
  portalListEventCatalog: {
    method: 'get',
    path: '/event-catalog',
    summary:
      "The project's current event types an endpoint can subscribe to, with descriptions, example payloads and schemas (deprecated ones left out)",
    tag,
    auth: 'portal',
    status: 200,
    message: 'Event catalog fetched',
    response: Type.Array(portalCatalogEntry),
  },
  portalListDeliveries: {
    method: 'get',
    path: '/eventdeliveries',
    summary: "Deliveries to the link's endpoints",
    tag,
    auth: 'portal',
    query: {
      ...pageQuery,
      endpointId: endpointFilter,
      eventId: str({ description: 'only deliveries of this event' }),
      status: enumOf(DELIVERY_STATUSES),
      ...createdRangeQuery,
      query: payloadSearch('deliveries'),
    },
    paginated: true,
    status: 200,
    message: 'Event deliveries fetched',
    response: portalDeliveryResponse,
  },
  portalGetDelivery: {
    method: 'get',
    path: DELIVERY,
    summary: 'A delivery with its attempts',
    tag,
    auth: 'portal',
    status: 200,
    message: 'Event delivery fetched',
    response: portalDeliveryResponse,
  },
  portalResendDelivery: {
    method: 'put',
    path: `${DELIVERY}/resend`,
    summary: 'Send a failed delivery again, or one waiting for its next retry now',
    tag,
    auth: 'portal',
    status: 200,
    message: 'Event delivery resent',
    response: portalDeliveryResponse,
  },
  portalForceResendDelivery: {
    method: 'put',
    path: `${DELIVERY}/forceresend`,
    summary: 'Send a delivery again even when it succeeded',
    tag,
    auth: 'portal',
    status: 200,
    message: 'Event delivery resent',
    response: portalDeliveryResponse,
  },
});
