import type { Request } from 'express';
import { PERMISSIONS, type Operation, type Permission } from '@hookrail/api-contract';
import { DomainError } from '@hookrail/domain';
import type { ProjectDoc } from '@hookrail/store';
import type { AuthKinds } from './call';

/**
 * How the calls of one auth kind are let in, in the order the mount function asks: who calls,
 * whether they hold the operation's permission, and which project the call acts on.
 */
export interface Authenticator<A = unknown> {
  /** The caller (the handler's `actor`); 401 when the credential is missing or wrong. */
  authenticate(req: Request): Promise<A>;
  /** 403 unless the actor holds `op.permission`. Roles narrow what an actor holds here. */
  authorize(actor: A, op: Operation): void;
  /** The project the call acts on, checked against the actor (403, 404); null when it has none. */
  project(actor: A, params: Record<string, string>): Promise<ProjectDoc | null>;
}

/** One authenticator per auth kind the gateway serves, its actor the one its handlers are typed with. */
export type Authenticators = { [K in keyof AuthKinds]: Authenticator<AuthKinds[K]['actor']> };

/** What a key, the admin key or a console session holds today: everything (no roles yet). */
export const EVERY_PERMISSION: ReadonlySet<Permission> = new Set(PERMISSIONS);

/** Refuses an operation whose permission is not among `granted`, with `refusal` as the 403's message. */
export function requirePermission(granted: ReadonlySet<Permission>, op: Operation, refusal: string): void {
  if (!granted.has(op.permission)) throw new DomainError('forbidden', refusal);
}
