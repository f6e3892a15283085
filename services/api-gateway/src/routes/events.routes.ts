import { NotFoundError } from '@hookrail/domain';
import { createdRangeOf, parsePageQuery, type EventListFilter, type EventStatus } from '@hookrail/store';
import type { GatewayDeps } from '../deps';
import { route, type RouteFile } from '../http/legacy-route';
import { presentEvents } from '../presenters/event.presenter';
import { enumOf, str } from '@hookrail/api-contract';
import {
  EVENT_STATUSES,
  broadcastEventBody,
  createEventBody,
  eventAcceptedResponse,
  eventResponse,
  fanoutEventBody,
} from '@hookrail/api-contract';
import { createdRangeQuery, idListQuery, idQuery, pageQuery, searchQuery } from '@hookrail/api-contract';
import { publishEvent } from '../usecases/publish-event.usecase';

const TAG = 'Events';
const BASE = '/v1/projects/:projectID/events';

export const eventRoutes: RouteFile<GatewayDeps> = (deps) => {
  const accepted = {
    method: 'post',
    tag: TAG,
    auth: 'project',
    status: 201,
    message: 'Event accepted',
    response: eventAcceptedResponse,
  } as const;

  return [
    route({
      ...accepted,
      path: `${BASE}/fanout`,
      operationId: 'fanoutEvent',
      summary: 'Send an event to every endpoint with an owner id',
      body: fanoutEventBody,
      handler: ({ project, body }) => publishEvent(deps, project, { mode: 'fanout', body }),
    }),
    route({
      ...accepted,
      path: `${BASE}/broadcast`,
      operationId: 'broadcastEvent',
      summary: 'Send an event to every matching subscription',
      body: broadcastEventBody,
      handler: ({ project, body }) => publishEvent(deps, project, { mode: 'broadcast', body }),
    }),
    route({
      ...accepted,
      path: BASE,
      operationId: 'createEvent',
      summary: 'Send an event to one endpoint',
      body: createEventBody,
      handler: ({ project, body }) => publishEvent(deps, project, { mode: 'single', body }),
    }),
    {
      method: 'get',
      path: BASE,
      operationId: 'listEvents',
      summary: 'List events, newest first',
      tag: TAG,
      auth: 'project',
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
      async handler({ project, query }) {
        const text = (key: string) => (query[key] === undefined ? undefined : String(query[key]));
        const filter: EventListFilter = {
          sourceIds: query.sourceId as string[] | undefined,
          endpointIds: query.endpointId as string[] | undefined,
          eventType: text('event_type'),
          idempotencyKey: text('idempotencyKey'),
          status: text('status') as EventStatus | undefined,
          createdRange: createdRangeOf(text('startDate'), text('endDate')),
          search: text('query'),
        };
        const page = await deps.store.events.page(project._id, filter, parsePageQuery(query));
        return { content: await presentEvents(page.content, deps), pagination: page.pagination };
      },
    },
    {
      method: 'get',
      path: `${BASE}/:eventID`,
      operationId: 'getEvent',
      summary: 'Get an event with the endpoints it targets and its source (operation 13)',
      tag: TAG,
      auth: 'project',
      status: 200,
      message: 'Event fetched successfully',
      response: eventResponse,
      async handler({ project, params }) {
        const doc = await deps.store.events.findById(project._id, params.eventID);
        if (!doc) throw new NotFoundError('event');
        return (await presentEvents([doc], deps))[0];
      },
    },
  ];
};
