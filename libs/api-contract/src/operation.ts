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

/** What an operation declares: its HTTP shape, who may call it and its schemas. No handler. */
export interface OperationShape {
  method: Method;
  /** Express-style, under the surface's prefix, e.g. `/v1/projects/:projectID/sources/:sourceID`. */
  path: string;
  summary: string;
  tag: string;
  auth: AuthKind;
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
  for (const [operationId, shape] of Object.entries(shapes))
    out[operationId] = { ...shape, surface, operationId };
  return out as OperationSet<S>;
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
