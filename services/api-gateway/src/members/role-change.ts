import type { AuditRecord, Role } from '@hookrail/api-contract';
import { newId } from '@hookrail/domain';
import type { Request } from 'express';
import type { Principal } from '../auth/principal';
import { principalActor } from '../audit/record-call';
import type { GatewayDeps } from '../deps';

export interface RoleChange {
  /** null: the instance's role. */
  projectId: string | null;
  /** The person whose role changed (their sub) and their e-mail. */
  target: { userId: string; email: string };
  before: Role | null;
  after: Role | null;
}

/**
 * `member.role_changed` in the audit log: who changed whose role where, before → after. Made only
 * when the role did change; the call itself is recorded as every call is (refusals included).
 */
export async function recordRoleChange(
  deps: Pick<GatewayDeps, 'audit' | 'cache'>,
  req: Request,
  actor: Principal,
  change: RoleChange,
): Promise<void> {
  if (change.before === change.after) return;
  const record: AuditRecord = {
    uid: newId(),
    project_id: change.projectId,
    actor: await principalActor(actor, deps),
    operation: 'member.role_changed',
    method: req.method,
    path: req.originalUrl.split('?')[0],
    resource: { type: 'user', id: change.target.userId },
    changes: {
      role: { before: change.before, after: change.after },
      email: { before: change.target.email, after: change.target.email },
    },
    fields: req.method === 'PUT' ? ['role'] : [],
    status: 200,
    ip: req.ip ?? req.socket.remoteAddress ?? '',
    user_agent: req.get('user-agent') ?? '',
    created_at: new Date().toISOString(),
  };
  deps.audit.record(record);
}
