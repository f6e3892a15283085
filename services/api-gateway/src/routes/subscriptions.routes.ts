import { Type } from '@sinclair/typebox';
import { parsePageQuery, type SubscriptionDoc, type SubscriptionListFilter } from '@hookrail/store';
import type { GatewayDeps } from '../deps';
import { route, type RouteFile } from '../http/legacy-route';
import { presentSubscriptions } from '../presenters/subscription.presenter';
import { str } from '@hookrail/api-contract';
import { idListQuery, idQuery, pageQuery } from '@hookrail/api-contract';
import {
  subscriptionCreateBody,
  subscriptionResponse,
  subscriptionUpdateBody,
  testFilterBody,
  testFilterResponse,
  testFunctionBody,
  testFunctionResponse,
} from '@hookrail/api-contract';
import {
  createSubscription,
  deleteSubscription,
  getSubscription,
  updateSubscription,
} from '../usecases/subscriptions.usecase';
import { testFilter, testFunction } from '../usecases/test-subscription.usecase';

const TAG = 'Subscriptions';
const BASE = '/v1/projects/:projectID/subscriptions';
const ONE = `${BASE}/:subscriptionID`;

export const subscriptionRoutes: RouteFile<GatewayDeps> = (deps) => {
  const presentOne = async (doc: SubscriptionDoc) => (await presentSubscriptions([doc], deps))[0];
  return [
    // literal paths before `/:subscriptionID`
    route({
      method: 'post',
      path: `${BASE}/test_filter`,
      operationId: 'testSubscriptionFilter',
      summary: 'Check whether a request body and headers pass a filter (same engine as routing)',
      tag: TAG,
      auth: 'project',
      body: testFilterBody,
      status: 200,
      message: 'Filter tested',
      response: testFilterResponse,
      handler: async ({ body }) => testFilter(body),
    }),
    route({
      method: 'post',
      path: `${BASE}/test_function`,
      operationId: 'testSubscriptionFunction',
      summary: 'Run a transform function on a sample payload in the delivery sandbox',
      tag: TAG,
      auth: 'project',
      body: testFunctionBody,
      status: 200,
      message: 'Function ran successfully',
      response: testFunctionResponse,
      handler: async ({ project, body }) => testFunction(deps.functions, project._id, body),
    }),
    route({
      method: 'post',
      path: BASE,
      operationId: 'createSubscription',
      summary: 'Create a subscription (operation 3)',
      tag: TAG,
      auth: 'project',
      body: subscriptionCreateBody,
      status: 201,
      message: 'Subscription created successfully',
      response: subscriptionResponse,
      handler: async ({ project, body }) => presentOne(await createSubscription(deps, project, body)),
    }),
    {
      method: 'get',
      path: BASE,
      operationId: 'listSubscriptions',
      summary: 'List subscriptions',
      tag: TAG,
      auth: 'project',
      query: {
        ...pageQuery,
        endpointId: idListQuery('subscriptions of any of these endpoints'),
        sourceId: idQuery('subscriptions of this source'),
        name: str(),
      },
      paginated: true,
      status: 200,
      message: 'Subscriptions fetched successfully',
      response: subscriptionResponse,
      async handler({ project, query }) {
        const filter: SubscriptionListFilter = {};
        if (query.endpointId !== undefined) filter.endpointIds = query.endpointId as string[];
        if (query.sourceId !== undefined) filter.sourceId = String(query.sourceId);
        if (query.name !== undefined) filter.name = String(query.name);
        const page = await deps.store.subscriptions.page(project._id, filter, parsePageQuery(query));
        return { content: await presentSubscriptions(page.content, deps), pagination: page.pagination };
      },
    },
    {
      method: 'get',
      path: ONE,
      operationId: 'getSubscription',
      summary: 'Get a subscription with its source and endpoint (operation 4)',
      tag: TAG,
      auth: 'project',
      status: 200,
      message: 'Subscription fetched successfully',
      response: subscriptionResponse,
      handler: async ({ project, params }) =>
        presentOne(await getSubscription(deps, project._id, params.subscriptionID)),
    },
    route({
      method: 'put',
      path: ONE,
      operationId: 'updateSubscription',
      summary: 'Update a subscription, including retry_config (operation 5)',
      tag: TAG,
      auth: 'project',
      body: subscriptionUpdateBody,
      status: 202,
      message: 'Subscription updated successfully',
      response: subscriptionResponse,
      handler: async ({ project, params, body }) =>
        presentOne(await updateSubscription(deps, project, params.subscriptionID, body)),
    }),
    {
      method: 'delete',
      path: ONE,
      operationId: 'deleteSubscription',
      summary: 'Delete a subscription',
      tag: TAG,
      auth: 'project',
      status: 200,
      message: 'Subscription deleted successfully',
      response: Type.Null(),
      async handler({ project, params }) {
        await deleteSubscription(deps, project._id, params.subscriptionID);
        return null;
      },
    },
  ];
};
