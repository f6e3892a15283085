import { Type } from '@sinclair/typebox';
import { NotFoundError, type ProjectId } from '@hookrail/domain';
import {
  createdRangeOf,
  parsePageQuery,
  type DeliveryListFilter,
  type DeliveryStatus,
} from '@hookrail/store';
import type { GatewayDeps } from '../deps';
import type { RouteFile } from '../http/legacy-route';
import { presentAttempt, presentDeliveries } from '../presenters/event.presenter';
import { DELIVERY_STATUSES, attemptResponse, deliveryResponse } from '@hookrail/api-contract';
import { createdRangeQuery, enumListQuery, idListQuery, idQuery, pageQuery } from '@hookrail/api-contract';

const TAG = 'Event deliveries';
const BASE = '/v1/projects/:projectID/eventdeliveries';
const ONE = `${BASE}/:deliveryID`;

/** Read-only delivery routes; resend, force resend and batch retry live in delivery-ops.routes.ts. */
export const deliveryRoutes: RouteFile<GatewayDeps> = (deps) => {
  const { store } = deps;
  const find = async (projectId: ProjectId, id: string) => {
    const doc = await store.deliveries.findById(projectId, id);
    if (!doc) throw new NotFoundError('event delivery');
    return doc;
  };
  return [
    {
      method: 'get',
      path: BASE,
      operationId: 'listEventDeliveries',
      summary: 'List event deliveries, newest first',
      tag: TAG,
      auth: 'project',
      query: {
        ...pageQuery,
        eventId: idQuery('deliveries of this event'),
        endpointId: idListQuery('deliveries to any of these endpoints'),
        subscriptionId: idQuery('deliveries of this subscription'),
        status: enumListQuery(DELIVERY_STATUSES, 'deliveries in any of these statuses'),
        ...createdRangeQuery,
      },
      paginated: true,
      status: 200,
      message: 'Event deliveries fetched successfully',
      response: deliveryResponse,
      async handler({ project, query }) {
        const text = (key: string) => (query[key] === undefined ? undefined : String(query[key]));
        const filter: DeliveryListFilter = {
          eventId: text('eventId'),
          endpointIds: query.endpointId as string[] | undefined,
          subscriptionId: text('subscriptionId'),
          statuses: query.status as DeliveryStatus[] | undefined,
          createdRange: createdRangeOf(text('startDate'), text('endDate')),
        };
        const page = await store.deliveries.page(project._id, filter, parsePageQuery(query));
        return { content: await presentDeliveries(page.content, deps), pagination: page.pagination };
      },
    },
    {
      method: 'get',
      path: ONE,
      operationId: 'getEventDelivery',
      summary: 'Get an event delivery',
      tag: TAG,
      auth: 'project',
      status: 200,
      message: 'Event delivery fetched successfully',
      response: deliveryResponse,
      handler: async ({ project, params }) =>
        (await presentDeliveries([await find(project._id, params.deliveryID)], deps))[0],
    },
    {
      method: 'get',
      path: `${ONE}/deliveryattempts`,
      operationId: 'listDeliveryAttempts',
      summary: 'List the attempts of an event delivery, oldest first',
      tag: TAG,
      auth: 'project',
      status: 200,
      message: 'Delivery attempts fetched successfully',
      response: Type.Array(attemptResponse),
      async handler({ project, params }) {
        const delivery = await find(project._id, params.deliveryID);
        return (delivery.attempts ?? []).map((a) => presentAttempt(a, delivery));
      },
    },
  ];
};
