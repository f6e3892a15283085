import { Type } from '@sinclair/typebox';
import { defineOperations } from '../operation';
import { str } from '../schemas/common.schema';
import { idListQuery, idQuery, pageQuery } from '../schemas/pagination.schema';
import {
  subscriptionCreateBody,
  subscriptionResponse,
  subscriptionUpdateBody,
  testFilterBody,
  testFilterResponse,
  testFunctionBody,
  testFunctionResponse,
} from '../schemas/subscription.schema';

const TAG = 'Subscriptions';
const BASE = '/v1/projects/:projectID/subscriptions';
const ONE = `${BASE}/:subscriptionID` as const;

export const subscriptionOperations = defineOperations('api', {
  testSubscriptionFilter: {
    method: 'post',
    path: `${BASE}/test_filter`,
    summary: 'Check whether a request body and headers pass a filter (same engine as routing)',
    tag: TAG,
    auth: 'project',
    body: testFilterBody,
    status: 200,
    message: 'Filter tested',
    response: testFilterResponse,
  },
  testSubscriptionFunction: {
    method: 'post',
    path: `${BASE}/test_function`,
    summary: 'Run a transform function on a sample payload in the delivery sandbox',
    tag: TAG,
    auth: 'project',
    body: testFunctionBody,
    status: 200,
    message: 'Function ran successfully',
    response: testFunctionResponse,
  },
  createSubscription: {
    method: 'post',
    path: BASE,
    summary: 'Create a subscription',
    tag: TAG,
    auth: 'project',
    body: subscriptionCreateBody,
    status: 201,
    message: 'Subscription created successfully',
    response: subscriptionResponse,
  },
  listSubscriptions: {
    method: 'get',
    path: BASE,
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
  },
  getSubscription: {
    method: 'get',
    path: ONE,
    summary: 'Get a subscription with its source and endpoint',
    tag: TAG,
    auth: 'project',
    status: 200,
    message: 'Subscription fetched successfully',
    response: subscriptionResponse,
  },
  updateSubscription: {
    method: 'put',
    path: ONE,
    summary: 'Update a subscription, including retry_config',
    tag: TAG,
    auth: 'project',
    body: subscriptionUpdateBody,
    status: 202,
    message: 'Subscription updated successfully',
    response: subscriptionResponse,
  },
  deleteSubscription: {
    method: 'delete',
    path: ONE,
    summary: 'Delete a subscription',
    tag: TAG,
    auth: 'project',
    status: 200,
    message: 'Subscription deleted successfully',
    response: Type.Null(),
  },
});
