import type { Request, Response } from 'express';
import type { BodyOf, Operation, OperationSet } from '@hookrail/api-contract';
import type { ProjectDoc } from '@hookrail/store';
import type { Principal } from '../auth/principal';

/**
 * What each auth kind's authenticator gives a handler: the actor and the project. A folder that
 * serves another auth kind adds its entry (`declare module '../http/call'`: the portal, the
 * console), so a handler's types follow its operation's `auth` and no shared file imports it.
 */
export interface AuthKinds {
  /** The admin key (or its console session); `project`: the path's, when it has `:projectID`. */
  admin: { actor: Principal; project: ProjectDoc };
  /** A project key, the admin key, or a console session for either; the path's project. */
  project: { actor: Principal; project: ProjectDoc };
  public: { actor: null; project: null };
  /** The deployment's own services: the credential is all there is to know. */
  internal: { actor: null; project: null };
}
type KindOf<O extends Operation> = O['auth'] extends keyof AuthKinds ? AuthKinds[O['auth']] : never;

/**
 * One call of an operation, on every surface: what the mount function checked and loaded before
 * the handler runs, typed by the operation's auth kind.
 */
export interface Call<B = unknown, A = Principal, P = ProjectDoc> {
  req: Request;
  /** For a streamed answer (an operation with `stream`) or cookies and headers: the envelope is the router's. */
  res: Response;
  params: Record<string, string>;
  query: Record<string, unknown>;
  /** Validated against the operation's body schema. */
  body: B;
  /** Who is calling, as the auth kind's authenticator found them. */
  actor: A;
  /** The project the call acts on: the path's (404 when it does not exist) or the portal link's. */
  project: P;
}

/** What the gateway runs for one operation: it answers the envelope's `data`. */
type Handler<O extends Operation> = (
  call: Call<BodyOf<O>, KindOf<O>['actor'], KindOf<O>['project']>,
) => Promise<unknown>;

/** One handler for each operation of a set, typed by its body and auth kind: a resource's handlers file returns this. */
export type Handlers<S extends OperationSet> = { [K in keyof S]: Handler<S[K]> };

/** An operation of the contract with its handler attached: what the mount function serves. */
export interface BoundOperation extends Operation {
  // method syntax: a handler typed for its operation's body and actor is usable here
  handler(call: Call<unknown, unknown, ProjectDoc | null>): Promise<unknown>;
}
