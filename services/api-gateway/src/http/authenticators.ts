import type { Request } from 'express';
import type { Operation } from '@hookrail/api-contract';
import type { ProjectDoc } from '@hookrail/store';
import type { AuthKinds } from './call';

/**
 * How the calls of one auth kind are let in, in the order the mount function asks: who calls,
 * whether they hold the operation's permission, and which project the call acts on.
 */
export interface Authenticator<A = unknown> {
  /** The caller (the handler's `actor`); 401 when the credential is missing or wrong. */
  authenticate(req: Request): Promise<A>;
  /** 403 unless the actor holds `op.permission`: its role's row in the role table (auth/roles.ts). */
  authorize(actor: A, op: Operation): void;
  /** The project the call acts on, checked against the actor (403, 404); null when it has none. */
  project(actor: A, params: Record<string, string>): Promise<ProjectDoc | null>;
}

/** One authenticator per auth kind the gateway serves, its actor the one its handlers are typed with. */
export type Authenticators = { [K in keyof AuthKinds]: Authenticator<AuthKinds[K]['actor']> };
