import { Router, type Request, type RequestHandler } from 'express';
import { object, SURFACE_PREFIX, type Surface } from '@hookrail/api-contract';
import { DomainError, ok, type ProjectId } from '@hookrail/domain';
import type { AccessLogLocals } from '@hookrail/runtime';
import type { ConfigCache, ProjectDoc } from '@hookrail/store';
import type { Metrics } from '@hookrail/telemetry';
import type { Authenticator, Authenticators } from './authenticators';
import type { BoundOperation, Call } from './call';
import { normaliseListQuery } from './list-query';
import { dropUnsetFields } from './unset-fields';
import { acceptsEmptyString, validate, validateQuery } from './validator';

/**
 * A state-changing call once answered, for the audit log: who (the auth kind's actor), on what,
 * with which body, the resource before (read through the operation's GET of the same path, for an
 * update) and after (the answer), and the status it was answered with.
 */
export interface AuditedCall {
  op: BoundOperation;
  req: Request;
  params: Record<string, string>;
  actor: unknown;
  project: ProjectDoc | null;
  body: unknown;
  before?: unknown;
  after?: unknown;
  status: number;
}
/** Records an answered call; it must not wait on anything the call would wait for. */
export type AuditRecorder = (call: AuditedCall) => void;

export interface MountDeps {
  authenticators: Authenticators;
  /** The audit log's writer: every operation that changes something (AUDITED), sent events included. */
  audit?: AuditRecorder;
  cache: Pick<ConfigCache, 'invalidate'>;
  /** Tells every dispatcher that a project's configuration changed (a configuration barrier). */
  announceConfigChange: (projectId: ProjectId) => Promise<unknown>;
  metrics: Metrics;
}

/** How a surface reads its requests; everything else is the same on every surface. */
interface SurfaceRules {
  /**
   * `strict`: a list's query is normalised (Convoy's aliases, repeated values) and a name it does
   * not declare is refused, so an unknown filter cannot widen a list. `open`: names it does not
   * declare are the page's own (the portal's `?token=`) and are ignored.
   */
  query: 'strict' | 'open';
  /** Fields sent unset (Go's `""`) are dropped before validation: Convoy's SDK sends every field. */
  dropUnsetFields: boolean;
  /** A body must say it is JSON, even an empty one: a cross-site form cannot (console sign-in). */
  jsonOnly: boolean;
  /** Timed in `hookrail_api_request_duration_seconds`. */
  timed: boolean;
}

type Timer = ReturnType<Metrics['histogram']>;
/** The surfaces the gateway serves; ingest is its own service. */
export type GatewaySurface = Exclude<Surface, 'ingest'>;
const SURFACE_RULES: Record<GatewaySurface, SurfaceRules> = {
  api: { query: 'strict', dropUnsetFields: true, jsonOnly: false, timed: true },
  portal: { query: 'open', dropUnsetFields: false, jsonOnly: false, timed: false },
  console: { query: 'strict', dropUnsetFields: false, jsonOnly: true, timed: false },
  relay: { query: 'strict', dropUnsetFields: false, jsonOnly: false, timed: false },
};

/**
 * Declares a surface's operations on `router`, one way for every surface: authenticate by the
 * operation's auth kind, check its permission, find its project, validate query and body, run the
 * handler, announce a configuration change when the operation declares one, wrap the envelope.
 * On `router` itself (or one sub-router per resource), not on a router of their own: each level
 * of routers a request passes through costs it express's bookkeeping.
 */
export function mountOperations(
  router: Router,
  operations: readonly BoundOperation[],
  deps: MountDeps,
): void {
  const timed = operations.some((op) => rulesOf(op).timed);
  const duration = timed
    ? deps.metrics.histogram('hookrail_api_request_duration_seconds', 'Management API request duration', [
        'method',
        'route',
        'status',
      ])
    : undefined;
  const mount = resourceRouters(router);
  const reads = new Map(operations.filter((op) => op.method === 'get').map((op) => [op.path, op]));
  for (const op of operations) {
    const { on, path } = mount(op.path);
    const before = op.method === 'put' || op.method === 'patch' ? reads.get(op.path) : undefined;
    on[op.method](path, serveOperation(op, deps, rulesOf(op).timed ? duration : undefined, before));
  }
}

/**
 * What the audit log records: every call that changes something. Sending events (`publish`) is
 * counted into one record per window by the recorder, not one per event: that doubled the
 * database's writes on the delivery path (docs/access.md, "Audit log").
 */
const AUDITED = (op: BoundOperation) => !['read', 'none'].includes(op.permission);

function rulesOf(op: BoundOperation): SurfaceRules {
  if (op.surface === 'ingest') throw new Error(`${op.operationId}: ingest is served by its own service`);
  return SURFACE_RULES[op.surface];
}

/**
 * One operation's request handler; what it needs of its operation is worked out once, here.
 * `readBefore`: the GET of the same path, which an update's audit record diffs its answer against.
 */
function serveOperation(
  op: BoundOperation,
  deps: MountDeps,
  duration?: Timer,
  readBefore?: BoundOperation,
): RequestHandler {
  const auth = authenticatorOf(op, deps.authenticators);
  const audit = deps.audit && AUDITED(op) ? deps.audit : undefined;
  const read = requestReader(op, rulesOf(op));
  const timerLabels = { method: op.method.toUpperCase(), route: op.path };
  const accessLogRoute = `${SURFACE_PREFIX[op.surface]}${op.path}`;
  return async (req, res) => {
    const params = req.params as Record<string, string>;
    if (duration) {
      const end = duration.startTimer(timerLabels);
      res.once('finish', () => end({ status: String(res.statusCode) }));
    }
    Object.assign(res.locals, {
      route: accessLogRoute,
      projectId: params.projectID,
    } satisfies AccessLogLocals);
    const actor = await auth.authenticate(req);
    // from here on the caller is known: a refusal is recorded too, once answered
    const audited: AuditedCall | undefined = audit && {
      op,
      req,
      params,
      actor,
      project: null,
      body: undefined,
      status: 0,
    };
    if (audited) res.once('finish', () => audit!({ ...audited, status: res.statusCode }));
    auth.authorize(actor, op);
    const project = await auth.project(actor, params);
    if (project) res.locals.projectId = project._id;
    const { query, body } = read(req);
    const call = { req, res, params, query, body, actor, project };
    if (audited) {
      Object.assign(audited, { project, body });
      audited.before = readBefore && (await readBefore.handler(call).catch(() => undefined));
    }
    const data = await run(op, call, deps);
    if (audited) audited.after = data;
    if (!op.stream) res.status(op.status).json(ok(op.message, data));
  };
}

function authenticatorOf(op: BoundOperation, authenticators: Authenticators): Authenticator {
  const auth: Authenticator | undefined = (authenticators as Partial<Record<string, Authenticator>>)[op.auth];
  if (!auth) throw new Error(`${op.operationId}: no authenticator for auth kind ${op.auth}`);
  return auth;
}

/**
 * Runs the handler. A configuration change is announced before answering, even when the handler
 * failed part-way: once the caller has the answer, a barrier is on every partition of the
 * dispatchers' topics, so every message published after it is handled with the new configuration.
 * This replica's own cache (API keys included) is dropped at once.
 */
async function run(
  op: BoundOperation,
  call: Call<unknown, unknown, ProjectDoc | null>,
  deps: MountDeps,
): Promise<unknown> {
  try {
    return await op.handler(call);
  } finally {
    if (op.changesConfiguration && call.project) {
      deps.cache.invalidate(call.project._id);
      await deps.announceConfigChange(call.project._id);
    }
  }
}

/** The operation's query and body, validated against its declaration. */
function requestReader(
  op: BoundOperation,
  rules: SurfaceRules,
): (req: Request) => { query: Record<string, unknown>; body: unknown } {
  const open = rules.query === 'open';
  const querySchema = op.query
    ? object(op.query, [], open ? { additionalProperties: true } : undefined)
    : undefined;
  return (req) => {
    let query: Record<string, unknown>;
    if (open) query = req.query as Record<string, unknown>;
    else if (op.query) query = normaliseListQuery(req.query as Record<string, unknown>, op.query);
    else query = lastValues(req);
    if (querySchema) validateQuery(querySchema, query);
    if (!op.body) return { query, body: undefined };
    if (rules.jsonOnly && !req.is('application/json'))
      throw new DomainError(
        'unsupported_media_type',
        'this call needs a JSON body (Content-Type: application/json)',
      );
    const raw: unknown = req.body ?? {};
    const body = validate(
      op.body,
      rules.dropUnsetFields ? dropUnsetFields(raw, op.body, acceptsEmptyString) : raw,
    );
    return { query, body };
  };
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

/** A query without a declaration: each name's last value. */
function lastValues(req: Request): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(req.query)) out[k] = Array.isArray(v) ? v[v.length - 1] : v;
  return out;
}
