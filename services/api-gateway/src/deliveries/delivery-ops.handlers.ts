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
import { resendDeliveryOrThrow } from './resend-delivery.usecase';
import { filterFromQuery, listFilterFromQuery } from '../http/list-query';
import { presentPortalDelivery } from '../portal/portal.presenter';
import { deliveryOpsOperations, type BodyOf } from '@hookrail/api-contract';
import type { Call, Handlers } from '../http/call';

export function deliveryOpsHandlers(deps: GatewayDeps): Handlers<typeof deliveryOpsOperations> {
  // POST and PUT (Convoy's SDK) are one operation with two verbs
  const batchRetryHandler = ({
    project,
    body,
    query,
  }: Call<BodyOf<typeof deliveryOpsOperations.batchRetryEventDeliveries>>) =>
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
    );
  return {
    batchRetryEventDeliveries: batchRetryHandler,
    batchRetryEventDeliveriesPut: batchRetryHandler,
    forceResendEventDeliveries: async ({ project, body }) => {
      const outcomes = await resendDeliveries(deps, project._id, body.ids, 'force');
      const ids = (kind: ResendOutcome['kind']) => body.ids.filter((id) => outcomes.get(id)?.kind === kind);
      return {
        resent: ids('resent').length,
        not_found: ids('not_found'),
        not_resendable: ids('not_resendable'),
      };
    },
    resendEventDelivery: async ({ project, params }) =>
      presentPortalDelivery(
        await resendDeliveryOrThrow(deps, project._id, params.deliveryID, 'resend'),
        false,
      ),
    retryEventDeliveryNow: async ({ project, params }) => {
      const delivery = await resendDeliveryOrThrow(deps, project._id, params.deliveryID, 'retry_now');
      deps.logger.info({ projectId: project._id, deliveryId: delivery._id }, 'delivery retried now');
      return presentPortalDelivery(delivery, false);
    },
    forceResendEventDelivery: async ({ project, params }) =>
      presentPortalDelivery(
        await resendDeliveryOrThrow(deps, project._id, params.deliveryID, 'force'),
        false,
      ),
    batchReplayEvents: ({ project, body, query }) =>
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
    replayEvent: async ({ project, params }) => {
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
  };
}
