import type { Bus } from '@hookrail/bus';
import { asProjectId } from '@hookrail/domain';
import type { Store } from '@hookrail/store';

/**
 * Stores each record of the `audit` topic as it came (the gateway built it), keyed by its id: a
 * message consumed again after a crash is one record. The offset is committed once it is stored.
 */
export function consumeAuditLog(bus: Pick<Bus, 'consume'>, store: Store): Promise<unknown> {
  return bus.consume('audit-log', {
    topic: 'audit',
    handle: async ({ uid, created_at, project_id, ...rest }) => {
      await store.auditLog.append([
        {
          _id: uid,
          ...rest,
          project_id: project_id === null ? null : asProjectId(project_id),
          created_at: new Date(created_at),
        },
      ]);
    },
  });
}
