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
import type { ConfigCache, ProjectDoc } from '@hookrail/store';
import type { Request } from 'express';
import { EVERY_PERMISSION, requirePermission, type Authenticator } from '../http/authenticators';

export type Principal = { kind: 'admin' } | { kind: 'project'; projectId: ProjectId; keyId: string };

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
): Promise<Principal> {
  if (!header) throw unauthenticated('missing API key: send "Authorization: Bearer <key>"');
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!m) throw unauthenticated('malformed Authorization header: expected "Bearer <key>"');
  const token = m[1];
  if (deps.adminKey && safeEqual(token, deps.adminKey)) return { kind: 'admin' };
  const key = PROJECT_KEY.exec(token);
  if (!key) throw unauthenticated('invalid API key');
  const doc = await deps.cache.apiKey(key[1]);
  const valid =
    doc !== null &&
    safeEqual(hashSecret(key[2]), doc.secret_hash) &&
    (!doc.expires_at || doc.expires_at > (deps.now?.() ?? new Date()));
  if (!doc || !valid) throw unauthenticated('invalid API key');
  return { kind: 'project', projectId: doc.project_id, keyId: doc._id };
}

/**
 * A project key opens only its own project's paths; the admin key opens every project. Returns the
 * path's project id, branded: from here on it may scope store queries.
 */
function authorizeProject(principal: Principal, projectId: string): ProjectId {
  if (principal.kind === 'project') {
    if (principal.projectId !== projectId)
      throw new DomainError('forbidden', 'this API key does not belong to the project in the path');
    return principal.projectId;
  }
  // The admin key: the id comes from the path as typed; one that is no id names no project.
  if (!isId(projectId)) throw new NotFoundError('project');
  return asProjectId(projectId);
}

function requireAdmin(principal: Principal): void {
  if (principal.kind !== 'admin')
    throw new DomainError('forbidden', 'this operation needs the instance admin key');
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
      if (adminOnly) requireAdmin(principal);
      return principal;
    },
    authorize: (_principal, op) =>
      requirePermission(EVERY_PERMISSION, op, `this key may not ${op.permission}`),
    async project(principal, params): Promise<ProjectDoc | null> {
      if (params.projectID === undefined) return null;
      const project = await deps.cache.project(authorizeProject(principal, params.projectID));
      if (!project) throw new NotFoundError('project');
      return project;
    },
  };
}
