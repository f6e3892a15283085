import {
  DomainError,
  ID_PATTERN,
  NotFoundError,
  asProjectId,
  hashSecret,
  isId,
  safeEqual,
  type ProjectId,
} from '@hookrail/domain';
import type { Operation, Role } from '@hookrail/api-contract';
import type { ApiKeyDoc, ConfigCache, ProjectDoc } from '@hookrail/store';
import type { Request } from 'express';
import type { Authenticator } from '../http/authenticators';
import { roleIn, type PersonRoles } from './group-roles';
import { authorizeGrant, roleOf } from './roles';

/**
 * A person signed in through single sign-on: who they are, and their roles from their groups.
 * `role` is the one that counts for the call at hand (its path's project), set per request.
 */
interface Person {
  kind: 'user';
  userId: string;
  email: string;
  name: string;
  roles: PersonRoles;
  role: Role;
  viewPayloads: boolean;
}

/**
 * Who calls the management API, and how: a Bearer key, or a console session opened with one or
 * through single sign-on.
 */
export type Principal = { via: 'key' | 'console' } & (
  | { kind: 'admin' }
  | { kind: 'project'; projectId: ProjectId; keyId: string; role: Role; viewPayloads: boolean }
  | Person
);

/** What a key opens (the admin key, a project key); a person's principal comes from their session. */
export type KeyPrincipal = Exclude<Principal, { kind: 'user' }>;

/** The admin key holds every permission, as an owner of every project. */
export const principalRole = (principal: Principal): Role =>
  principal.kind === 'admin' ? 'owner' : principal.role;

/**
 * A person's principal for one call: the role their groups give in the path's project. One with
 * no role there is refused here, naming the project, before any permission is looked at.
 */
function personFor(principal: Principal, projectId: string | undefined): Principal {
  if (principal.kind !== 'user') return principal;
  const role = roleIn(principal.roles, projectId);
  if (!role)
    throw new DomainError(
      'forbidden',
      projectId === undefined
        ? 'your groups give you no role on this instance (only in some projects)'
        : `your groups give you no role in project ${projectId}`,
    );
  return { ...principal, role };
}

/** A live project key's principal: its project, its role (owner for a key issued before roles). */
function keyPrincipal(doc: ApiKeyDoc, via: Principal['via']): KeyPrincipal {
  return {
    via,
    kind: 'project',
    projectId: doc.project_id,
    keyId: doc._id,
    role: roleOf(doc.access_role),
    viewPayloads: doc.view_payloads ?? false,
  };
}

/** Why a stored key opens nothing, or null when it is live: an expired key says so and since when. */
export function keyRefusal(doc: ApiKeyDoc | null, now: Date): string | null {
  if (!doc) return 'invalid API key';
  if (doc.expires_at && doc.expires_at <= now) return `API key expired at ${doc.expires_at.toISOString()}`;
  return null;
}

const PROJECT_KEY = new RegExp(`^hr_(${ID_PATTERN.slice(1, -1)})\\.([A-Za-z0-9_-]{16,})$`);

const unauthenticated = (message: string) => new DomainError('unauthenticated', message);

/** The key id of a token shaped like a project key, or null (the admin key, anything else). */
export function projectKeyId(token: string): string | null {
  return PROJECT_KEY.exec(token)?.[1] ?? null;
}

/** `hr_<keyId>.<secret>`: the key id finds the stored hash, the secret is compared in constant time. */
export function formatProjectKey(keyId: string, secret: string): string {
  return `hr_${keyId}.${secret}`;
}

export async function authenticate(
  header: string | undefined,
  deps: { cache: ConfigCache; adminKey?: string; now?: () => Date },
): Promise<KeyPrincipal> {
  if (!header) throw unauthenticated('missing API key: send "Authorization: Bearer <key>"');
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!m) throw unauthenticated('malformed Authorization header: expected "Bearer <key>"');
  const token = m[1];
  if (deps.adminKey && safeEqual(token, deps.adminKey)) return { via: 'key', kind: 'admin' };
  const key = PROJECT_KEY.exec(token);
  if (!key) throw unauthenticated('invalid API key');
  const found = await deps.cache.apiKey(key[1]);
  // the secret first: an expiry is told only to who holds the key
  const doc = found && safeEqual(hashSecret(key[2]), found.secret_hash) ? found : null;
  const refusal = keyRefusal(doc, deps.now?.() ?? new Date());
  if (refusal) throw unauthenticated(refusal);
  return keyPrincipal(doc!, 'key');
}

/**
 * A project key opens only its own project's paths; the admin key opens every project. Returns the
 * path's project id, branded: from here on it may scope store queries.
 */
function authorizeProject(principal: Principal, projectId: string): ProjectId {
  // a person's role in the project was checked by personFor: here only the id's shape matters
  if (principal.kind === 'project') {
    if (principal.projectId !== projectId)
      throw new DomainError('forbidden', 'this API key does not belong to the project in the path');
    return principal.projectId;
  }
  // The admin key: the id comes from the path as typed; one that is no id names no project.
  if (!isId(projectId)) throw new NotFoundError('project');
  return asProjectId(projectId);
}

/**
 * Instance operations a person with roles in some projects only may call: each answers only what
 * concerns those projects (the projects list lists them, and no other).
 */
const OPEN_TO_PROJECT_MEMBERS = new Set(['listProjects']);

/** The instance's operations: the admin key, or a person with a role on the whole instance. */
function requireAdmin(principal: Principal, op: Operation): void {
  if (principal.kind === 'user' && principal.roles.instance) return;
  if (principal.kind === 'user' && OPEN_TO_PROJECT_MEMBERS.has(op.operationId)) return;
  if (principal.kind !== 'admin')
    throw new DomainError('forbidden', 'this operation needs the instance admin key or an instance role');
}

/** The projects a person may see when they hold no instance role; undefined: every project. */
export function visibleProjects(principal: Principal): ProjectId[] | undefined {
  if (principal.kind === 'admin' || (principal.kind === 'user' && principal.roles.instance)) return undefined;
  if (principal.kind === 'project') return [principal.projectId];
  // a mapping's key that is no project id (a typo in the configuration) names no project
  return Object.keys(principal.roles.projects).filter(isId).map(asProjectId);
}

export interface PrincipalAuthDeps {
  cache: ConfigCache;
  adminKey?: string;
  /** Another way in besides the Bearer key (the console's session cookie); `undefined`: not used. */
  session?: (req: Request) => Promise<Principal | undefined>;
}

/**
 * The management API's auth kinds: `project` (a project key, the admin key, or a console session
 * for either) and, with `adminOnly`, `admin`. A path's `:projectID` is the call's project: a
 * project key opens only its own, and one that does not exist is a 404.
 */
export function principalAuthenticator(deps: PrincipalAuthDeps, adminOnly = false): Authenticator<Principal> {
  return {
    async authenticate(req) {
      const principal =
        (await deps.session?.(req)) ??
        (await authenticate(req.headers.authorization, { cache: deps.cache, adminKey: deps.adminKey }));
      const projectId = (req.params as Record<string, string> | undefined)?.projectID;
      // a person with project roles only passes here on an instance operation; requireAdmin decides
      if (adminOnly && principal.kind === 'user' && !principal.roles.instance)
        return { ...principal, role: 'viewer' };
      return personFor(principal, projectId);
    },
    authorize: (principal, op) => {
      if (adminOnly) requireAdmin(principal, op);
      const role = principalRole(principal);
      authorizeGrant(role, op, `this ${principal.via === 'console' ? 'session' : 'key'}'s role ${role}`);
    },
    async project(principal, params): Promise<ProjectDoc | null> {
      if (params.projectID === undefined) return null;
      const project = await deps.cache.project(authorizeProject(principal, params.projectID));
      if (!project) throw new NotFoundError('project');
      return project;
    },
  };
}
