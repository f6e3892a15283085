import { Type } from '@sinclair/typebox';
import { defineOperations, type OperationShape } from '../operation';
import {
  anyObject,
  bool,
  enumOf,
  int,
  nonEmpty,
  object,
  strArray,
  timestamp,
} from '../schemas/common.schema';
import { createdRangeQuery, enumListQuery, idListQuery, idQuery } from '../schemas/pagination.schema';

const DELIVERIES = '/v1/projects/:projectID/eventdeliveries';
const EVENTS = '/v1/projects/:projectID/events';

/** A resent delivery as the portal shows it. */
const deliveryResponse = anyObject;
const batchResponse = object({ matched: int(), resent: int(), more: bool }, ['matched', 'resent', 'more']);
const dateFilters = { start_date: timestamp, end_date: timestamp };

const batchRetry = <const M extends 'post' | 'put'>(method: M) =>
  ({
    method,
    path: `${DELIVERIES}/batchretry` as const,
    summary: 'Resend every failed or discarded event delivery matching a filter (up to 1,000 per call)',
    tag: 'Event deliveries',
    auth: 'project',
    permission: 'operate',
    changesConfiguration: false,
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
  }) satisfies OperationShape;

export const deliveryOpsOperations = defineOperations('api', {
  forceResendEventDeliveries: {
    method: 'post',
    path: `${DELIVERIES}/forceresend`,
    summary: 'Force resend event deliveries, also those that succeeded',
    tag: 'Event deliveries',
    auth: 'project',
    permission: 'operate',
    changesConfiguration: false,
    body: object({ ids: strArray({ minItems: 1, maxItems: 100, uniqueItems: true }) }, ['ids']),
    status: 200,
    message: 'Event deliveries resent',
    response: object({ resent: int(), not_found: strArray(), not_resendable: strArray() }),
  },
  batchRetryEventDeliveries: batchRetry('post'),
  batchRetryEventDeliveriesPut: batchRetry('put'),
  resendEventDelivery: {
    method: 'put',
    path: `${DELIVERIES}/:deliveryID/resend`,
    summary: 'Resend a failed or discarded event delivery',
    tag: 'Event deliveries',
    auth: 'project',
    permission: 'retry',
    changesConfiguration: false,
    status: 200,
    message: 'Event delivery resent',
    response: deliveryResponse,
  },
  retryEventDeliveryNow: {
    method: 'put',
    path: `${DELIVERIES}/:deliveryID/retry-now`,
    summary:
      'Send a delivery waiting for its next retry now, instead of at its scheduled time (resend takes failed and discarded ones)',
    tag: 'Event deliveries',
    auth: 'project',
    permission: 'retry',
    changesConfiguration: false,
    status: 200,
    message: 'Event delivery sent again now',
    response: deliveryResponse,
  },
  forceResendEventDelivery: {
    method: 'put',
    path: `${DELIVERIES}/:deliveryID/forceresend`,
    summary: 'Force resend one event delivery, also one that succeeded',
    tag: 'Event deliveries',
    auth: 'project',
    permission: 'operate',
    changesConfiguration: false,
    status: 200,
    message: 'Event delivery resent',
    response: deliveryResponse,
  },
  batchReplayEvents: {
    method: 'post',
    path: `${EVENTS}/batchreplay`,
    summary: 'Replay every event matching a filter: new deliveries (up to 1,000 events per call)',
    tag: 'Events',
    auth: 'project',
    permission: 'operate',
    changesConfiguration: false,
    body: object({
      event_ids: strArray({ minItems: 1, maxItems: 1000, uniqueItems: true }),
      source_id: nonEmpty(),
      ...dateFilters,
    }),
    query: { sourceId: idListQuery('events from any of these sources'), ...createdRangeQuery },
    status: 200,
    message: 'Events replayed',
    response: batchResponse,
  },
  replayEvent: {
    method: 'put',
    path: `${EVENTS}/:eventID/replay`,
    summary: 'Replay an event: a new delivery for each subscription it was delivered through',
    tag: 'Events',
    auth: 'project',
    permission: 'operate',
    changesConfiguration: false,
    status: 200,
    message: 'Event replayed',
    response: object({ event_id: nonEmpty(), deliveries: Type.Array(anyObject) }),
  },
});
