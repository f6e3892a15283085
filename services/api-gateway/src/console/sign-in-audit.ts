import type { Request } from 'express';
import type { AuditRecord } from '@hookrail/api-contract';
import { newId } from '@hookrail/domain';
import type { GatewayDeps } from '../deps';
import type { OidcIdentity } from '../auth/oidc-client';

export type SignInOutcome = (
  | { ok: true; person: Pick<OidcIdentity, 'sub' | 'email'>; role: AuditRecord['actor']['role'] }
  | { ok: false; status: number; reason: string; person?: Pick<OidcIdentity, 'sub' | 'email'>; ended?: true }
) & {
  /** Instead of the sign-in's names: a back-channel logout's (oidc-logout.ts). */
  operation?: string;
  status?: number;
};

/**
 * A single sign-on attempt in the instance's audit log (`session.sign_in`, `session.sign_in_failed`;
 * `session.ended` when the provider refused to renew a live session),
 * through the same audit sink as every recorded call: the person when the provider named one,
 * the refusal's reason in `changes.reason`. Published without making the browser wait.
 */
export function signInAuditor(deps: Pick<GatewayDeps, 'audit'>) {
  return (req: Request, outcome: SignInOutcome): void => {
    const record: AuditRecord = {
      uid: newId(),
      project_id: null,
      actor: {
        kind: 'user',
        via: 'console',
        key_id: null,
        key_name: null,
        role: outcome.ok ? outcome.role : null,
        portal_link_id: null,
        user_id: outcome.person?.sub ?? null,
        email: outcome.person?.email || null,
      },
      operation:
        outcome.operation ??
        (outcome.ok ? 'session.sign_in' : outcome.ended ? 'session.ended' : 'session.sign_in_failed'),
      method: req.method,
      path: req.originalUrl.split('?')[0],
      resource: { type: 'session', id: null },
      changes: outcome.ok ? null : { reason: { before: null, after: outcome.reason } },
      fields: [],
      status: outcome.status ?? 303,
      ip: req.ip ?? req.socket.remoteAddress ?? '',
      user_agent: req.get('user-agent') ?? '',
      created_at: new Date().toISOString(),
    };
    deps.audit.record(record);
  };
}
