import type { AuditActor, AuditRecord } from '@hookrail/api-contract';
import { errorMessage, newId, toTimestamp } from '@hookrail/domain';
import { fieldChanges } from '@hookrail/toolbox';
import type { GatewayDeps } from '../deps';
import type { Principal } from '../auth/principal';
import type { AuditedCall, AuditRecorder } from '../http/mount-operations';
import type { PortalSession } from '../portal/portal-auth';
import type { CallRecord } from './publish-aggregates';

/** Fields every update changes: not worth a line in a diff. */
const ALWAYS_CHANGE = new Set(['updated_at', 'created_at']);

/**
 * The audit log's writer, as the mount function calls it once a state-changing call was answered:
 * builds the record and hands it to the audit sink (the `audit` topic) without making anyone wait.
 * A call that sent events (`publish`) is counted into its window's aggregate instead of making a
 * record of its own (docs/access.md, "Audit log").
 */
export function auditRecorder(deps: Pick<GatewayDeps, 'audit' | 'cache' | 'logger'>): AuditRecorder {
  return (call) => {
    const at = Date.now();
    recordOf(call, deps).then(
      (record) =>
        call.op.permission === 'publish'
          ? deps.audit.aggregate({ record, at, eventIds: eventIdsOf(call.after) })
          : deps.audit.record({ uid: newId(), ...record, created_at: toTimestamp(at) }),
      (err: unknown) =>
        deps.logger.warn(
          { error: errorMessage(err), operation: call.op.operationId },
          'audit record not made',
        ),
    );
  };
}

async function recordOf(call: AuditedCall, deps: Pick<GatewayDeps, 'cache'>): Promise<CallRecord> {
  const { op, req, params, body, before, after } = call;
  const data = after as { uid?: unknown } | undefined;
  return {
    // a project's existence is the instance's business: its creation and deletion stay in the
    // instance's log when the project's own records are purged with it
    project_id: op.auth === 'admin' ? null : projectOf(call),
    actor: await actorOf(call, deps),
    operation: op.operationId,
    method: req.method,
    path: req.originalUrl.split('?')[0],
    resource: resourceOf(op.path, params, typeof data?.uid === 'string' ? data.uid : null),
    changes: before !== undefined && after !== undefined ? fieldChanges(before, after, ALWAYS_CHANGE) : null,
    fields: body && typeof body === 'object' ? Object.keys(body) : [],
    status: call.status,
    ip: req.ip ?? req.socket.remoteAddress ?? '',
    user_agent: req.get('user-agent') ?? '',
  };
}

/** The events a publish call's answer names (one event, or a list of them); none for a refusal. */
function eventIdsOf(answer: unknown): string[] {
  const items = Array.isArray(answer) ? answer : [answer];
  return items.flatMap((item) => {
    const uid = (item as { uid?: unknown } | null | undefined)?.uid;
    return typeof uid === 'string' ? [uid] : [];
  });
}

/** The call's project; for a call refused before it was found, the caller's own project. */
function projectOf(call: AuditedCall): string | null {
  if (call.project) return call.project._id;
  if (call.op.auth === 'portal') return (call.actor as PortalSession).link.project_id;
  const principal = call.actor as Principal;
  return principal.kind === 'project' ? principal.projectId : null;
}

const NOBODY = { key_id: null, key_name: null, role: null, portal_link_id: null, user_id: null, email: null };

async function actorOf(call: AuditedCall, deps: Pick<GatewayDeps, 'cache'>): Promise<AuditActor> {
  if (call.op.auth === 'portal') {
    const { link } = call.actor as PortalSession;
    return { ...NOBODY, kind: 'portal_link', via: 'portal', portal_link_id: link._id };
  }
  return principalActor(call.actor as Principal, deps);
}

/** A key's or a person's name in an audit record (a role change's actor too). */
export async function principalActor(
  principal: Principal,
  deps: Pick<GatewayDeps, 'cache'>,
): Promise<AuditActor> {
  const via = principal.via === 'console' ? 'console' : 'api';
  if (principal.kind === 'admin') return { ...NOBODY, kind: 'admin_key', via, role: 'owner' };
  if (principal.kind === 'user')
    return {
      ...NOBODY,
      kind: 'user',
      via,
      user_id: principal.userId,
      email: principal.email,
      role: principal.role,
    };
  const key = await deps.cache.apiKey(principal.keyId);
  return {
    ...NOBODY,
    kind: 'api_key',
    via,
    key_id: principal.keyId,
    key_name: key?.name ?? null,
    role: principal.role,
  };
}

/**
 * The resource a call acts on: its path's last parameter (`…/endpoints/:endpointID/pause` →
 * endpoint), else what it created (the answer's `uid`) under the word after the project
 * (`…/:projectID/endpoints` → endpoint; `/v1/projects` → project).
 */
function resourceOf(
  path: string,
  params: Record<string, string>,
  createdId: string | null,
): AuditRecord['resource'] {
  const segments = path.split('/').filter((s) => s && s !== 'v1');
  const at = segments.findLastIndex((s) => s.startsWith(':'));
  const param = at >= 0 ? segments[at].slice(1) : undefined;
  const collection = segments[at + 1];
  if (param && (param !== 'projectID' || collection === undefined))
    return { type: param.replace(/ID$/, ''), id: params[param] ?? null };
  return { type: singular(collection ?? 'projects'), id: createdId };
}

const singular = (word: string) => word.replace(/ies$/, 'y').replace(/s$/, '');
