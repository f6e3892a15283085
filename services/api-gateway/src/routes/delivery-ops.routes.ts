import { Type } from '@sinclair/typebox';
import { ConflictError, NotFoundError } from '@hookrail/domain';
import {
  batchReplay,
  batchRetry,
  replayEvent,
  resendDeliveries,
  type DeliveryFilter,
  type EventFilter,
  type ResendOutcome,
} from '@hookrail/operations';
import type { GatewayDeps } from '../deps';
import { resendDeliveryOrThrow } from '../usecases/resend-delivery.usecase';
import { filterFromQuery, listFilterFromQuery } from '../http/list-query';
import { route, type RouteFile, type LegacyRouteSpec as RouteSpec } from '../http/legacy-route';
import { presentPortalDelivery } from '../portal/portal.presenter';
import { anyObject, bool, enumOf, int, nonEmpty, object, strArray, timestamp } from '@hookrail/api-contract';
import { createdRangeQuery, enumListQuery, idListQuery, idQuery } from '@hookrail/api-contract';

const DELIVERIES = '/v1/projects/:projectID/eventdeliveries';
const EVENTS = '/v1/projects/:projectID/events';

const deliveryResponse = anyObject;
const batchResponse = object({ matched: int(), resent: int(), more: bool }, ['matched', 'resent', 'more']);
const dateFilters = { start_date: timestamp, end_date: timestamp };

/** Resend outcome → response or the domain error the gateway maps to 404/409. */

/**
 * Manual delivery operations: resend, force resend, batch retry by
 * filter, replay an event, batch replay. All go through the normal pipeline (`deliveries` topic),
 * so endpoint status, circuit breaker and rate limits apply to them as to any delivery.
 */
export const deliveryOpsRoutes: RouteFile<GatewayDeps> = (deps) => [
  // literal paths before the `/:id` ones
  route({
    method: 'post',
    path: `${DELIVERIES}/forceresend`,
    operationId: 'forceResendEventDeliveries',
    summary: 'Force resend event deliveries, also those that succeeded',
    tag: 'Event deliveries',
    auth: 'project',
    body: object({ ids: strArray({ minItems: 1, maxItems: 100, uniqueItems: true }) }, ['ids']),
    status: 200,
    message: 'Event deliveries resent',
    response: object({ resent: int(), not_found: strArray(), not_resendable: strArray() }),
    handler: async ({ project, body }) => {
      const outcomes = await resendDeliveries(deps, project._id, body.ids, 'force');
      const ids = (kind: ResendOutcome['kind']) => body.ids.filter((id) => outcomes.get(id)?.kind === kind);
      return {
        resent: ids('resent').length,
        not_found: ids('not_found'),
        not_resendable: ids('not_resendable'),
      };
    },
  }),
  ...(['post', 'put'] as const).map((method) => batchRetryRoute(deps, method)),
  {
    method: 'put',
    path: `${DELIVERIES}/:deliveryID/resend`,
    operationId: 'resendEventDelivery',
    summary: 'Resend a failed or discarded event delivery',
    tag: 'Event deliveries',
    auth: 'project',
    status: 200,
    message: 'Event delivery resent',
    response: deliveryResponse,
    handler: async ({ project, params }) =>
      presentPortalDelivery(
        await resendDeliveryOrThrow(deps, project._id, params.deliveryID, 'resend'),
        false,
      ),
  },
  {
    method: 'put',
    path: `${DELIVERIES}/:deliveryID/forceresend`,
    operationId: 'forceResendEventDelivery',
    summary: 'Force resend one event delivery, also one that succeeded',
    tag: 'Event deliveries',
    auth: 'project',
    status: 200,
    message: 'Event delivery resent',
    response: deliveryResponse,
    handler: async ({ project, params }) =>
      presentPortalDelivery(
        await resendDeliveryOrThrow(deps, project._id, params.deliveryID, 'force'),
        false,
      ),
  },
  route({
    method: 'post',
    path: `${EVENTS}/batchreplay`,
    operationId: 'batchReplayEvents',
    summary: 'Replay every event matching a filter: new deliveries (up to 1,000 events per call)',
    tag: 'Events',
    auth: 'project',
    body: object({
      event_ids: strArray({ minItems: 1, maxItems: 1000, uniqueItems: true }),
      source_id: nonEmpty(),
      ...dateFilters,
    }),
    // Convoy's SDK sends the filter as query parameters (its generated client several sources)
    query: { sourceId: idListQuery('events from any of these sources'), ...createdRangeQuery },
    status: 200,
    message: 'Events replayed',
    response: batchResponse,
    handler: ({ project, body, query }) =>
      batchReplay(
        deps,
        project._id,
        filterFromQuery(
          listFilterFromQuery<EventFilter>(
            body,
            query.sourceId as string[] | undefined,
            'sourceId',
            'source_id',
            'source_ids',
          ),
          query,
          { startDate: 'start_date', endDate: 'end_date' },
        ),
      ),
  }),
  {
    method: 'put',
    path: `${EVENTS}/:eventID/replay`,
    operationId: 'replayEvent',
    summary: 'Replay an event: a new delivery for each subscription it was delivered through',
    tag: 'Events',
    auth: 'project',
    status: 200,
    message: 'Event replayed',
    response: object({ event_id: nonEmpty(), deliveries: Type.Array(anyObject) }),
    handler: async ({ project, params }) => {
      const out = await replayEvent(deps, project._id, params.eventID);
      switch (out.kind) {
        case 'not_found':
          throw new NotFoundError('event');
        case 'nothing_to_replay':
          throw new ConflictError('the event matched no subscription: it has no delivery to replay');
        case 'replayed':
          return {
            event_id: out.event._id,
            deliveries: out.deliveries.map((d) => presentPortalDelivery(d, false)),
          };
      }
    },
  },
];

function batchRetryRoute(deps: GatewayDeps, method: 'post' | 'put'): RouteSpec {
  return route({
    method,
    path: `${DELIVERIES}/batchretry`,
    operationId: method === 'post' ? 'batchRetryEventDeliveries' : 'batchRetryEventDeliveriesPut',
    summary: 'Resend every failed or discarded event delivery matching a filter (up to 1,000 per call)',
    tag: 'Event deliveries',
    auth: 'project',
    body: object({
      // One status or a list of them (Convoy's docs show both).
      status: Type.Union([
        enumOf(['Failure', 'Discarded']),
        Type.Array(enumOf(['Failure', 'Discarded']), { minItems: 1, uniqueItems: true }),
      ]),
      endpoint_id: nonEmpty(),
      event_id: nonEmpty(),
      ...dateFilters,
    }),
    status: 200,
    message: 'Event deliveries retried',
    response: batchResponse,
    // Convoy's SDK sends the filter as query parameters (and PUT)
    query: {
      eventId: idQuery('deliveries of this event'),
      endpointId: idListQuery('deliveries to any of these endpoints'),
      status: enumListQuery(['Failure', 'Discarded'], 'deliveries in any of these statuses'),
      ...createdRangeQuery,
    },
    handler: ({ project, body, query }) =>
      batchRetry(
        deps,
        project._id,
        filterFromQuery(
          listFilterFromQuery<DeliveryFilter>(
            body,
            query.endpointId as string[] | undefined,
            'endpointId',
            'endpoint_id',
            'endpoint_ids',
          ),
          query,
          { eventId: 'event_id', status: 'status', startDate: 'start_date', endDate: 'end_date' },
        ),
      ),
  });
}
