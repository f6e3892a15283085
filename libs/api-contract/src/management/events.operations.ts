import { defineOperations } from '../operation';
import { enumOf, str } from '../schemas/common.schema';
import {
  EVENT_STATUSES,
  broadcastEventBody,
  createEventBody,
  eventAcceptedResponse,
  eventResponse,
  fanoutEventBody,
} from '../schemas/event.schema';
import {
  createdRangeQuery,
  idListQuery,
  idQuery,
  pageQuery,
  searchQuery,
} from '../schemas/pagination.schema';

const TAG = 'Events';
const BASE = '/v1/projects/:projectID/events';

/** The three ways to publish: each answers 201 once Kafka has the event. */
const accepted = {
  method: 'post',
  tag: TAG,
  auth: 'project',
  permission: 'publish',
  changesConfiguration: false,
  status: 201,
  message: 'Event accepted',
  response: eventAcceptedResponse,
} as const;

export const eventOperations = defineOperations('api', {
  fanoutEvent: {
    ...accepted,
    path: `${BASE}/fanout`,
    summary: 'Send an event to every endpoint with an owner id',
    body: fanoutEventBody,
  },
  broadcastEvent: {
    ...accepted,
    path: `${BASE}/broadcast`,
    summary: 'Send an event to every matching subscription',
    body: broadcastEventBody,
  },
  createEvent: {
    ...accepted,
    path: BASE,
    summary: 'Send an event to one endpoint',
    body: createEventBody,
  },
  listEvents: {
    method: 'get',
    path: BASE,
    summary: 'List events, newest first',
    tag: TAG,
    auth: 'project',
    permission: 'read',
    changesConfiguration: false,
    query: {
      ...pageQuery,
      sourceId: idListQuery('events from any of these sources'),
      endpointId: idListQuery('events that targeted any of these endpoints'),
      event_type: str(),
      idempotencyKey: idQuery('events with this idempotency key'),
      status: enumOf(EVENT_STATUSES),
      ...createdRangeQuery,
      query: searchQuery(
        'events whose payload contains every word of this text, ignoring case; read in bounded steps, so a page may hold fewer items than perPage (even none) with has_next_page: follow next_page_cursor',
      ),
    },
    paginated: true,
    status: 200,
    message: 'Events fetched successfully',
    response: eventResponse,
  },
  getEvent: {
    method: 'get',
    path: `${BASE}/:eventID`,
    summary: 'Get an event with the endpoints it targets and its source',
    tag: TAG,
    auth: 'project',
    permission: 'read',
    changesConfiguration: false,
    status: 200,
    message: 'Event fetched successfully',
    response: eventResponse,
  },
});
