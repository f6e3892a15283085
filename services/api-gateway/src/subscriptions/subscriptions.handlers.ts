import { parsePageQuery, type SubscriptionDoc, type SubscriptionListFilter } from '@hookrail/store';
import type { GatewayDeps } from '../deps';
import { presentSubscriptions } from './subscription.presenter';
import {
  createSubscription,
  deleteSubscription,
  getSubscription,
  updateSubscription,
} from './subscriptions.usecase';
import { testFilter, testFunction } from './test-subscription.usecase';
import { subscriptionOperations } from '@hookrail/api-contract';
import type { Handlers } from '../http/call';

export function subscriptionHandlers(deps: GatewayDeps): Handlers<typeof subscriptionOperations> {
  const presentOne = async (doc: SubscriptionDoc) => (await presentSubscriptions([doc], deps))[0];
  return {
    testSubscriptionFilter: async ({ body }) => testFilter(body),
    testSubscriptionFunction: async ({ project, body }) => testFunction(deps.functions, project._id, body),
    createSubscription: async ({ project, body }) =>
      presentOne(await createSubscription(deps, project, body)),
    async listSubscriptions({ project, query }) {
      const filter: SubscriptionListFilter = {};
      if (query.endpointId !== undefined) filter.endpointIds = query.endpointId as string[];
      if (query.sourceId !== undefined) filter.sourceId = String(query.sourceId);
      if (query.name !== undefined) filter.name = String(query.name);
      const page = await deps.store.subscriptions.page(project._id, filter, parsePageQuery(query));
      return { content: await presentSubscriptions(page.content, deps), pagination: page.pagination };
    },
    getSubscription: async ({ project, params }) =>
      presentOne(await getSubscription(deps, project._id, params.subscriptionID)),
    updateSubscription: async ({ project, params, body }) =>
      presentOne(await updateSubscription(deps, project, params.subscriptionID, body)),
    async deleteSubscription({ project, params }) {
      await deleteSubscription(deps, project._id, params.subscriptionID);
      return null;
    },
  };
}
