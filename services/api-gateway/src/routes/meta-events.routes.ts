import { NotFoundError, type ProjectId } from '@hookrail/domain';
import type { MetaEventType } from '@hookrail/bus';
import { parsePageQuery, type MetaEventDoc, type MetaEventListFilter } from '@hookrail/store';
import type { GatewayDeps } from '../deps';
import type { RouteFile } from '../http/legacy-route';
import { presentMetaEvent } from '../presenters/meta-event.presenter';
import { enumOf, str } from '@hookrail/api-contract';
import { META_EVENT_STATUSES, metaEventResponse } from '@hookrail/api-contract';
import { pageQuery } from '@hookrail/api-contract';

const TAG = 'Meta events';
const BASE = '/v1/projects/:projectID/meta-events';
const ONE = `${BASE}/:metaEventID`;

export const metaEventRoutes: RouteFile<GatewayDeps> = (deps) => {
  const find = async (projectId: ProjectId, id: string) => {
    const doc = await deps.store.metaEvents.findById(projectId, id);
    if (!doc) throw new NotFoundError('meta event');
    return doc;
  };
  return [
    {
      method: 'get',
      path: BASE,
      operationId: 'listMetaEvents',
      summary: 'List meta events, newest first',
      tag: TAG,
      auth: 'project',
      query: { ...pageQuery, event_type: str(), status: enumOf(META_EVENT_STATUSES) },
      paginated: true,
      status: 200,
      message: 'Meta events fetched successfully',
      response: metaEventResponse,
      async handler({ project, query }) {
        const filter: MetaEventListFilter = {};
        if (query.event_type !== undefined) filter.eventType = String(query.event_type);
        if (query.status !== undefined) filter.status = query.status as MetaEventDoc['status'];
        const page = await deps.store.metaEvents.page(project._id, filter, parsePageQuery(query));
        return { content: page.content.map(presentMetaEvent), pagination: page.pagination };
      },
    },
    {
      method: 'get',
      path: ONE,
      operationId: 'getMetaEvent',
      summary: 'Get a meta event',
      tag: TAG,
      auth: 'project',
      status: 200,
      message: 'Meta event fetched successfully',
      response: metaEventResponse,
      handler: async ({ project, params }) => presentMetaEvent(await find(project._id, params.metaEventID)),
    },
    {
      method: 'put',
      path: `${ONE}/resend`,
      operationId: 'resendMetaEvent',
      summary: 'Send a meta event again at once (operation 12)',
      tag: TAG,
      auth: 'project',
      status: 200,
      message: 'Meta event scheduled for resend',
      response: metaEventResponse,
      async handler({ project, params }) {
        const doc = await find(project._id, params.metaEventID);
        const now = deps.now();
        const updated = await deps.store.metaEvents.update(project._id, doc._id, {
          status: 'Scheduled',
          metadata: { ...doc.metadata, next_send_time: now },
        });
        if (!updated) throw new NotFoundError('meta event');
        await deps.publisher.publish('meta', [
          {
            project_id: project._id,
            event_type: doc.event_type as MetaEventType,
            meta_event_id: doc._id,
            // The meta-event service sends the stored `metadata.raw`; a resend carries no new data.
            data: null,
            occurred_at: now.toISOString(),
          },
        ]);
        return presentMetaEvent(updated);
      },
    },
  ];
};
