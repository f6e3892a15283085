import type { Static, TSchema } from '@sinclair/typebox';
import type { paginationResponse } from './schemas/pagination.schema';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Who may call an operation:
 * - `admin`: the instance admin key only;
 * - `project`: a key of the path's project, the admin key, or a console session for either;
 * - `portal`: a portal link's token (Bearer, or `?token=`), limited to the link's endpoints;
 * - `console`: a console session cookie (state changes also carry its anti-CSRF header);
 * - `source`: none of the above; an HTTP source's own verifier decides (ingest);
 * - `internal`: the deployment's own services (the dispatcher's relay calls), with the credential
 *   derived from the instance key (libs/domain `relayCredential`);
 * - `public`: anyone (documents that hold no data).
 */
export type AuthKind = 'admin' | 'project' | 'portal' | 'console' | 'source' | 'internal' | 'public';

/** Where a surface is mounted: an operation's `path` is under its surface's prefix. */
export const SURFACE_PREFIX = {
  api: '/api',
  portal: '/portal-api',
  console: '/console',
  ingest: '/ingest',
  relay: '/relay',
} as const;
export type Surface = keyof typeof SURFACE_PREFIX;

/**
 * What a call needs beyond its auth kind, from least to most; the caller's grants decide (today a
 * project key, the admin key and a console session hold every one, a portal link `read` and `retry`,
 * or all of them with `can_manage_endpoint`). Roles will be sets of these:
 * - `none`: the auth kind alone suffices (console sign-in and session, the internal relay);
 * - `read`: lists, gets, statistics, the link's own description;
 * - `retry`: send again now one delivery that has not succeeded (resend, retry now);
 * - `publish`: send events (the events API, ingest, the portal's test event);
 * - `operate`: act on deliveries and events without changing configuration: force resend, batch
 *   retry, replay, unblock an ordering key, resend a meta event, redrive a dead letter, listen, and
 *   the test helpers (filter, function, OAuth2) that change nothing;
 * - `configure`: create, change or delete endpoints, subscriptions, sources, event types, portal
 *   links (refreshing a link's auth key too) and the project's settings;
 * - `own`: the project's credentials and existence: API keys, project create and delete.
 */
export const PERMISSIONS = ['none', 'read', 'retry', 'publish', 'operate', 'configure', 'own'] as const;
export type Permission = (typeof PERMISSIONS)[number];

/**
 * The rate limits of a surface: per auth kind, not per operation. Each names what its counter is
 * kept per; the limits are settings (`HOOKRAIL_RATE_LIMIT_*`), applied per replica before routing
 * by the gateway (`api`, `portal`: its `http/rate-limits.ts`) and by ingest (its `service.ts`). The
 * console's sign-in has its own throttle instead; the relay is the deployment's own traffic.
 */
export const SURFACE_RATE_LIMITS = {
  api: ['api-key', 'project'],
  portal: ['portal-link'],
  console: [],
  ingest: ['source'],
  relay: [],
} as const satisfies Record<Surface, readonly string[]>;
export type RateLimitScope = (typeof SURFACE_RATE_LIMITS)[Surface][number];

/** What an operation declares: its HTTP shape, who may call it and its schemas. No handler. */
export interface OperationShape {
  method: Method;
  /** Express-style, under the surface's prefix, e.g. `/v1/projects/:projectID/sources/:sourceID`. */
  path: string;
  summary: string;
  tag: string;
  auth: AuthKind;
  /** What the caller must be granted (see PERMISSIONS); checked before the handler runs. */
  permission: Permission;
  /**
   * The call changes its project's configuration: the gateway drops the project's cached
   * configuration and puts a barrier on the dispatchers' partitions before answering (even when
   * the handler failed part-way). Only for a call with a project (`:projectID`, a portal link).
   */
  changesConfiguration: boolean;
  body?: TSchema;
  /** Query parameters (strings, or arrays of strings for a repeated parameter). */
  query?: Record<string, TSchema>;
  /** The response's `data` is a page (`content` + `pagination`) of `response` items. */
  paginated?: boolean;
  /** The success answer is a stream of this media type, not the JSON envelope; `response` describes each event. */
  stream?: 'text/event-stream';
  status: number;
  message: string;
  /** Schema of `data` (of each item when paginated). */
  response: TSchema;
}

export interface Operation extends OperationShape {
  surface: Surface;
  operationId: string;
}

/** A surface's operations keyed by operationId, in the order the router tries them. */
export type OperationSet<S extends Record<string, OperationShape> = Record<string, OperationShape>> = {
  [K in keyof S & string]: S[K] & { surface: Surface; operationId: K };
};

/**
 * Declares a surface's operations: the key of each is its operationId. Order matters only where a
 * literal path could be shadowed by a parameter (`endpoints/oauth2/test` before
 * `endpoints/:endpointID`): declare literals first.
 */
export function defineOperations<const S extends Record<string, OperationShape>>(
  surface: Surface,
  shapes: S,
): OperationSet<S> {
  const out: Record<string, Operation> = {};
  for (const [operationId, shape] of Object.entries(shapes)) {
    checkDeclaration(operationId, shape);
    out[operationId] = { ...shape, surface, operationId };
  }
  return out as OperationSet<S>;
}

/**
 * The type checker already refuses an operation without these fields; this catches one built
 * around it (a cast, a spread of `any`) when the module loads, at start-up and in every test.
 */
function checkDeclaration(operationId: string, shape: OperationShape): void {
  if (!(PERMISSIONS as readonly string[]).includes(shape.permission))
    throw new Error(`${operationId}: permission must be one of ${PERMISSIONS.join(', ')}`);
  if (typeof shape.changesConfiguration !== 'boolean')
    throw new Error(`${operationId}: changesConfiguration must be declared (true or false)`);
  if (shape.changesConfiguration && shape.method === 'get')
    throw new Error(`${operationId}: a GET changes no configuration`);
}

/** `'/v1/projects/:projectID/endpoints/:endpointID'` → `'projectID' | 'endpointID'` */
type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;
export type PathParams<O extends OperationShape> = { [K in ParamNames<O['path']>]: string };

export type BodyOf<O extends OperationShape> = O extends { body: infer B extends TSchema }
  ? Static<B>
  : undefined;

/** One page of a list: its items and where the next and previous pages are. */
export interface Page<T> {
  content: T[];
  pagination: Static<typeof paginationResponse>;
}

/** The response schema's type: a list's item when the operation is paginated. */
export type ItemOf<O extends OperationShape> = Static<O['response']>;
export type ResponseOf<O extends OperationShape> = O['paginated'] extends true ? Page<ItemOf<O>> : ItemOf<O>;
