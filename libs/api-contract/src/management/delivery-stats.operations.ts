import { defineOperations } from '../operation';
import { enumOf } from '../schemas/common.schema';
import { idQuery } from '../schemas/pagination.schema';
import { statsResponse } from '../schemas/delivery-stats.schema';
import { STATS_WINDOW_NAMES } from '../vocabulary';

export const deliveryStatsOperations = defineOperations('api', {
  getDeliveryStats: {
    method: 'get',
    path: '/v1/projects/:projectID/delivery-stats',
    summary: 'Deliveries per minute by outcome, latency p50/p95 and the retry backlog',
    tag: 'Event deliveries',
    auth: 'project',
    permission: 'read',
    changesConfiguration: false,
    query: {
      window: enumOf(STATS_WINDOW_NAMES),
      endpointId: idQuery("one endpoint's figures (default: the whole project)"),
    },
    status: 200,
    message: 'Delivery statistics',
    response: statsResponse,
  },
});
