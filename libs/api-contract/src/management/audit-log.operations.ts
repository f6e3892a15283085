import { defineOperations } from '../operation';
import { auditQuery, auditRecordResponse } from '../schemas/audit.schema';
import { createdRangeQuery, pageQuery } from '../schemas/pagination.schema';

const TAG = 'Audit log';
const query = { ...pageQuery, ...createdRangeQuery, ...auditQuery };

/**
 * The audit log is read only: no operation changes or deletes a record (they leave with the
 * project's retention period).
 */
export const auditLogOperations = defineOperations('api', {
  listProjectAuditLog: {
    method: 'get',
    path: '/v1/projects/:projectID/audit-log',
    summary: "The project's audit log: every state-changing call, newest first",
    tag: TAG,
    auth: 'project',
    permission: 'read',
    changesConfiguration: false,
    query,
    paginated: true,
    status: 200,
    message: 'Audit log fetched successfully',
    response: auditRecordResponse,
  },
  listAuditLog: {
    method: 'get',
    path: '/v1/audit-log',
    summary: "Every project's audit log and the instance's own calls (project create, delete), newest first",
    tag: TAG,
    auth: 'admin',
    permission: 'read',
    changesConfiguration: false,
    query,
    paginated: true,
    status: 200,
    message: 'Audit log fetched successfully',
    response: auditRecordResponse,
  },
});
