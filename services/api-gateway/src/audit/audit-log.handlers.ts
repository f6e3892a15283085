import { auditLogOperations, type AuditRecord } from '@hookrail/api-contract';
import { toTimestamp, type ProjectId } from '@hookrail/domain';
import { createdRangeOf, parsePageQuery, type AuditDoc } from '@hookrail/store';
import type { GatewayDeps } from '../deps';
import type { Handlers } from '../http/call';

/** The audit log's two lists (a project's, the instance's); nothing changes or deletes a record. */
export function auditLogHandlers({ store }: GatewayDeps): Handlers<typeof auditLogOperations> {
  const list = async (query: Record<string, unknown>, projectId?: ProjectId) => {
    const text = (key: string) => (query[key] === undefined ? undefined : String(query[key]));
    const page = await store.auditLog.page(
      {
        projectId,
        actor: text('actor'),
        operation: text('operation'),
        resource: text('resource'),
        createdRange: createdRangeOf(text('startDate'), text('endDate')),
      },
      parsePageQuery(query),
    );
    return { content: page.content.map(presentAuditRecord), pagination: page.pagination };
  };
  return {
    listProjectAuditLog: ({ project, query }) => list(query, project._id),
    listAuditLog: ({ query }) => list(query),
  };
}

function presentAuditRecord({ _id, created_at, ...rest }: AuditDoc): AuditRecord {
  return { uid: _id, ...rest, created_at: toTimestamp(created_at) };
}
