import { NotFoundError, type ProjectId } from '@hookrail/domain';
import {
  createdRangeOf,
  parsePageQuery,
  type DeliveryListFilter,
  type DeliveryStatus,
} from '@hookrail/store';
import type { GatewayDeps } from '../deps';
import type { RouteFile } from '../http/route';
import { presentAttempt, presentDelivery } from '../presenters/event.presenter';
import { enumOf, str } from '../schemas/common.schema';
import { DELIVERY_STATUSES, attemptResponse, deliveryResponse } from '../schemas/event.schema';
import { createdRangeQuery, pageQuery } from '../schemas/pagination.schema';

const TAG = 'Event deliveries';
const BASE = '/v1/projects/:projectID/eventdeliveries';
const ONE = `${BASE}/:deliveryID`;

/** Read-only delivery routes; resend, force resend and batch retry live in delivery-ops.routes.ts. */
export const deliveryRoutes: RouteFile<GatewayDeps> = ({ store }) => {
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
        event_id: str(),
        endpoint_id: str(),
        subscription_id: str(),
        status: enumOf(DELIVERY_STATUSES),
        ...createdRangeQuery,
      },
      paginated: true,
      status: 200,
      message: 'Event deliveries fetched successfully',
      response: deliveryResponse,
      async handler({ project, query }) {
        const text = (key: string) => (query[key] === undefined ? undefined : String(query[key]));
        const status = text('status') as DeliveryStatus | undefined;
        const endpointId = text('endpoint_id');
        const filter: DeliveryListFilter = {
          eventId: text('event_id'),
          endpointIds: endpointId === undefined ? undefined : [endpointId],
          subscriptionId: text('subscription_id'),
          statuses: status === undefined ? undefined : [status],
          createdRange: createdRangeOf(text('start_date'), text('end_date')),
        };
        const page = await store.deliveries.page(project._id, filter, parsePageQuery(query));
        return { content: page.content.map(presentDelivery), pagination: page.pagination };
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
      handler: async ({ project, params }) => presentDelivery(await find(project._id, params.deliveryID)),
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
      response: { type: 'array', items: attemptResponse },
      handler: async ({ project, params }) =>
        ((await find(project._id, params.deliveryID)).attempts ?? []).map(presentAttempt),
    },
  ];
};
