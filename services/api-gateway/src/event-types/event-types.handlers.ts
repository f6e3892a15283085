import { EVENT_TYPE_LIMITS, type eventTypeOperations } from '@hookrail/api-contract';
import type { ProjectId } from '@hookrail/domain';
import type { GatewayDeps } from '../deps';
import type { Handlers } from '../http/call';
import { presentEventType } from './event-type.presenter';
import {
  createEventType,
  deleteEventType,
  deprecateEventType,
  getEventType,
  updateEventType,
} from './event-types.usecase';
import { importEventTypes } from './import.usecase';

export function eventTypeHandlers(deps: GatewayDeps): Handlers<typeof eventTypeOperations> {
  // After a change, this replica's next events are checked against the catalog as it is now.
  const changed = <T>(projectId: ProjectId, result: T): T => {
    deps.eventValidator.forget(projectId);
    return result;
  };
  return {
    async importEventTypes({ project, body }) {
      const result = changed(project._id, await importEventTypes(deps, project._id, body));
      return Array.isArray(result) ? result.map(presentEventType) : result;
    },
    createEventType: async ({ project, body }) =>
      presentEventType(changed(project._id, await createEventType(deps, project._id, body))),
    listEventTypes: async ({ project }) =>
      (await deps.store.eventCatalog.listAll(project._id, EVENT_TYPE_LIMITS.perProject)).map(
        presentEventType,
      ),
    getEventType: async ({ project, params }) =>
      presentEventType(await getEventType(deps, project._id, params.eventTypeId)),
    updateEventType: async ({ project, params, body }) =>
      presentEventType(
        changed(project._id, await updateEventType(deps, project._id, params.eventTypeId, body)),
      ),
    async deleteEventType({ project, params }) {
      await deleteEventType(deps, project._id, params.eventTypeId);
      return changed(project._id, null);
    },
    deprecateEventType: async ({ project, params }) =>
      presentEventType(changed(project._id, await deprecateEventType(deps, project._id, params.eventTypeId))),
  };
}
