import { NotFoundError, type ProjectId } from '@hookrail/domain';
import {
  createdRangeOf,
  parsePageQuery,
  type DeliveryListFilter,
  type DeliveryStatus,
} from '@hookrail/store';
import type { GatewayDeps } from '../deps';
import { sentBody } from './request-body';
import { presentAttempt, presentDeliveries } from '../events/event.presenter';
import { deliveryOperations } from '@hookrail/api-contract';
import type { Handlers } from '../http/call';
import { showsPayloads, withPayloadsFor } from '../common/payloads';

export function deliveryHandlers(deps: GatewayDeps): Handlers<typeof deliveryOperations> {
  const { store } = deps;
  const find = async (projectId: ProjectId, id: string) => {
    const doc = await store.deliveries.findById(projectId, id);
    if (!doc) throw new NotFoundError('event delivery');
    return doc;
  };
  return {
    async listEventDeliveries({ project, query }) {
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
    async getEventDelivery({ project, params, actor }) {
      const doc = await find(project._id, params.deliveryID);
      const [out, body] = await Promise.all([presentDeliveries([doc], deps), sentBody(store, doc)]);
      // the body sent is left out for a caller not shown payloads
      return showsPayloads(actor) ? { ...out[0], ...body } : out[0];
    },
    async listDeliveryAttempts({ project, params, actor }) {
      const delivery = await find(project._id, params.deliveryID);
      const attempts = (delivery.attempts ?? []).map((a) => presentAttempt(a, delivery));
      return withPayloadsFor(actor, attempts, (a) => ({ ...a, response_data: '' }));
    },
  };
}
