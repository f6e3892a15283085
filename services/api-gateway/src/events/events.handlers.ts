import { NotFoundError } from '@hookrail/domain';
import { createdRangeOf, parsePageQuery, type EventListFilter, type EventStatus } from '@hookrail/store';
import type { GatewayDeps } from '../deps';
import { presentEvents } from './event.presenter';
import { publishEvent } from './publish-event.usecase';
import { eventOperations } from '@hookrail/api-contract';
import type { Handlers } from '../http/call';
import { withPayloadsFor } from '../common/payloads';

const withoutPayload = <E extends { raw: string; data: unknown }>(e: E): E => ({ ...e, raw: '', data: null });

export function eventHandlers(deps: GatewayDeps): Handlers<typeof eventOperations> {
  return {
    fanoutEvent: ({ project, body }) => publishEvent(deps, project, { mode: 'fanout', body }),
    broadcastEvent: ({ project, body }) => publishEvent(deps, project, { mode: 'broadcast', body }),
    createEvent: ({ project, body }) => publishEvent(deps, project, { mode: 'single', body }),
    async listEvents({ project, query, actor }) {
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
      const content = withPayloadsFor(actor, await presentEvents(page.content, deps), withoutPayload);
      return { content, pagination: page.pagination };
    },
    async getEvent({ project, params, actor }) {
      const doc = await deps.store.events.findById(project._id, params.eventID);
      if (!doc) throw new NotFoundError('event');
      return withPayloadsFor(actor, await presentEvents([doc], deps), withoutPayload)[0];
    },
  };
}
