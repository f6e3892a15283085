import { NotFoundError, type ProjectId } from '@hookrail/domain';
import type { MetaEventType } from '@hookrail/api-contract';
import { parsePageQuery, type MetaEventDoc, type MetaEventListFilter } from '@hookrail/store';
import type { GatewayDeps } from '../deps';
import { presentMetaEvent } from './meta-event.presenter';
import { metaEventOperations } from '@hookrail/api-contract';
import type { Handlers } from '../http/call';

export function metaEventHandlers(deps: GatewayDeps): Handlers<typeof metaEventOperations> {
  const find = async (projectId: ProjectId, id: string) => {
    const doc = await deps.store.metaEvents.findById(projectId, id);
    if (!doc) throw new NotFoundError('meta event');
    return doc;
  };
  return {
    async listMetaEvents({ project, query }) {
      const filter: MetaEventListFilter = {};
      if (query.event_type !== undefined) filter.eventType = String(query.event_type);
      if (query.status !== undefined) filter.status = query.status as MetaEventDoc['status'];
      const page = await deps.store.metaEvents.page(project._id, filter, parsePageQuery(query));
      return { content: page.content.map(presentMetaEvent), pagination: page.pagination };
    },
    getMetaEvent: async ({ project, params }) =>
      presentMetaEvent(await find(project._id, params.metaEventID)),
    async resendMetaEvent({ project, params }) {
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
  };
}
