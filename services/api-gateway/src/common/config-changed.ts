import type { ConfigMessage, Publisher } from '@hookrail/bus';
import type { ProjectId } from '@hookrail/domain';

/** Tells the caches in source-consumer and dispatcher that a resource changed (hookrail.config). */
export function publishConfigChange(
  publisher: Publisher,
  projectId: ProjectId,
  resource: ConfigMessage['resource'],
  id: string,
  op: ConfigMessage['op'],
): Promise<void> {
  return publisher.publish('config', [{ project_id: projectId, resource, id, op }]);
}
