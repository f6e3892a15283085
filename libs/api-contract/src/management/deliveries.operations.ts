import { Type } from '@sinclair/typebox';
import { defineOperations } from '../operation';
import { DELIVERY_STATUSES, attemptResponse, deliveryResponse } from '../schemas/event.schema';
import {
  createdRangeQuery,
  enumListQuery,
  idListQuery,
  idQuery,
  pageQuery,
} from '../schemas/pagination.schema';

const TAG = 'Event deliveries';
const BASE = '/v1/projects/:projectID/eventdeliveries';
const ONE = `${BASE}/:deliveryID` as const;

export const deliveryOperations = defineOperations('api', {
  listEventDeliveries: {
    method: 'get',
    path: BASE,
    summary: 'List event deliveries, newest first',
    tag: TAG,
    auth: 'project',
    permission: 'read',
    changesConfiguration: false,
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
  },
  getEventDelivery: {
    method: 'get',
    path: ONE,
    summary: 'Get an event delivery',
    tag: TAG,
    auth: 'project',
    permission: 'read',
    changesConfiguration: false,
    status: 200,
    message: 'Event delivery fetched successfully',
    response: deliveryResponse,
  },
  listDeliveryAttempts: {
    method: 'get',
    path: `${ONE}/deliveryattempts`,
    summary: 'List the attempts of an event delivery, oldest first',
    tag: TAG,
    auth: 'project',
    permission: 'read',
    changesConfiguration: false,
    status: 200,
    message: 'Delivery attempts fetched successfully',
    response: Type.Array(attemptResponse),
  },
});
