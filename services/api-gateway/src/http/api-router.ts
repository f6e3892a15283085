import { Router, type Request } from 'express';
import { NotFoundError, ok, type ProjectId } from '@hookrail/domain';
import type { AccessLogLocals } from '@hookrail/runtime';
import type { ConfigCache } from '@hookrail/store';
import type { Metrics } from '@hookrail/telemetry';
import { authenticate, authorizeProject, requireAdmin, type Principal } from '../auth/principal';
import { object } from '@hookrail/api-contract';
import { normaliseListQuery } from './list-query';
import type { Call, RouteSpec } from './route';
import { dropUnsetFields } from './unset-fields';
import { acceptsEmptyString, validate, validateQuery } from './validator';

export interface RouterDeps {
  cache: ConfigCache;
  /** Tells every dispatcher that a project's configuration changed (a configuration barrier). */
  announceConfigChange: (projectId: ProjectId) => Promise<unknown>;
  metrics: Metrics;
  adminKey?: string;
  /** Another way in besides the Bearer key (the console's session cookie); `undefined`: not used. */
  session?: (req: Request) => Promise<Principal | undefined>;
}

/**
 * Declares every route on `router`: authenticate, authorize, load the project, validate, run, wrap
 * in the envelope. On the API's router itself, not on a router of their own mounted in it: each
 * level of routers a request passes through costs it express's bookkeeping.
 */
export function mountApiRoutes(router: Router, routes: RouteSpec[], deps: RouterDeps): void {
  const duration = deps.metrics.histogram(
    'hookrail_api_request_duration_seconds',
    'Management API request duration',
    ['method', 'route', 'status'],
  );
  const mount = resourceRouters(router);
  for (const spec of routes) {
    // A route that declares its query refuses other names: an unknown filter must not widen a list.
    const querySchema = spec.query ? object(spec.query) : undefined;
    // What a request needs of its route, worked out once per route instead of on every request.
    const timerLabels = { method: spec.method.toUpperCase(), route: spec.path };
    const accessLogRoute = `/api${spec.path}`;
    const changesConfig = changesConfiguration(spec);
    const { on, path } = mount(spec.path);
    on[spec.method](path, async (req, res) => {
      const end = duration.startTimer(timerLabels);
      Object.assign(res.locals, {
        route: accessLogRoute,
        projectId: (req.params as Record<string, string>).projectID,
      } satisfies AccessLogLocals);
      res.once('finish', () => end({ status: String(res.statusCode) }));
      const principal =
        (await deps.session?.(req)) ??
        (await authenticate(req.headers.authorization, { cache: deps.cache, adminKey: deps.adminKey }));
      if (spec.auth === 'admin') requireAdmin(principal);
      const params = req.params as Record<string, string>;
      let project = null;
      let changed: ProjectId | null = null;
      if (params.projectID !== undefined) {
        const projectId = authorizeProject(principal, params.projectID);
        project = await deps.cache.project(projectId);
        if (!project) throw new NotFoundError('project');
        if (changesConfig) changed = projectId;
      }
      const query =
        spec.query && querySchema
          ? normaliseListQuery(req.query as Record<string, unknown>, spec.query)
          : queryOf(req);
      if (querySchema) validateQuery(querySchema, query);
      const body = spec.body
        ? validate(spec.body, dropUnsetFields(req.body, spec.body, acceptsEmptyString))
        : undefined;
      const call = { req, res, params, query, body, principal, project } as Call;
      let data: unknown;
      try {
        data = await spec.handler(call);
      } finally {
        // Before answering, even when the handler failed part-way: once the caller has the answer,
        // a barrier is on every partition of the dispatchers' topics, so every message published
        // after it is handled with the new configuration. This replica's own cache (API keys
        // included) is dropped at once.
        if (changed) {
          deps.cache.invalidate(changed);
          await deps.announceConfigChange(changed);
        }
      }
      if (!spec.stream) res.status(spec.status).json(ok(spec.message, data));
    });
  }
}

/** A project resource's routes share a prefix: `/v1/projects/:projectID/<resource>`. */
const RESOURCE_PREFIX = /^\/v1\/projects\/:projectID\/[^/]+/;

/**
 * Where a route is declared: a project resource's routes on one sub-router per resource, mounted at
 * the resource's prefix, the others on `router` itself. A request is then matched against about 15
 * route patterns instead of every route's (70): in the gateway, under load, matching against every
 * pattern cost a tenth of its CPU. Route order still counts only among routes of one resource.
 */
function resourceRouters(router: Router): (path: string) => { on: Router; path: string } {
  const byPrefix = new Map<string, Router>();
  return (path) => {
    const prefix = RESOURCE_PREFIX.exec(path)?.[0];
    if (!prefix) return { on: router, path };
    let sub = byPrefix.get(prefix);
    if (!sub) {
      // mergeParams: the handlers read :projectID from the prefix.
      sub = Router({ mergeParams: true });
      byPrefix.set(prefix, sub);
      router.use(prefix, sub);
    }
    return { on: sub, path: path.slice(prefix.length) || '/' };
  };
}

/**
 * Whether a route changes a project's configuration (keys, endpoints, sources, subscriptions,
 * portal links, the project itself). Publishing, replaying and resending events, reading, and the
 * test helpers change none.
 */
export function changesConfiguration(spec: Pick<RouteSpec, 'method' | 'path'>): boolean {
  if (spec.method === 'get') return false;
  return !/\/(meta-)?events\b|\/eventdeliveries\b|\/test_(filter|function)$|\/oauth2\/test$/.test(spec.path);
}

function queryOf(req: Request): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(req.query)) out[k] = Array.isArray(v) ? v[v.length - 1] : v;
  return out;
}
