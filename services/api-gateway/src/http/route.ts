import type { Request } from 'express';
import type { ProjectDoc } from '@hookrail/store';
import type { Principal } from '../auth/principal';
import type { Static, TSchema } from '@sinclair/typebox';

export type Method = 'get' | 'post' | 'put' | 'delete';

export interface Call<B = unknown> {
  req: Request;
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: B;
  principal: Principal;
  /** Loaded for every path with `:projectID` (404 when it does not exist). */
  project: ProjectDoc;
}

/**
 * One operation: its HTTP shape, auth, schemas and handler. The router and the OpenAPI document are
 * both built from these, so a route cannot be served without being documented.
 */
export interface RouteSpec<B = unknown> {
  method: Method;
  /** Express-style path under /api, e.g. `/v1/projects/:projectID/sources/:sourceID`. */
  path: string;
  operationId: string;
  summary: string;
  tag: string;
  /** `admin`: the instance admin key only; `project`: a key of the path's project, or the admin key. */
  auth: 'admin' | 'project';
  body?: TSchema;
  /** Query parameters (strings), documented and validated. */
  query?: Record<string, TSchema>;
  paginated?: boolean;
  status: number;
  message: string;
  /** Schema of `data` (of each item when paginated). */
  response: TSchema;
  // method syntax: a route typed for its body (route()) is usable where a RouteSpec is expected
  handler(call: Call<B>): Promise<unknown>;
}

/** Groups the routes of one file; `deps` is closed over by the handlers. */
export type RouteFile<D> = (deps: D) => RouteSpec[];

/** A route with a body, whose handler gets the body as its schema's static type. */
interface BodyRoute<S extends TSchema> extends Omit<RouteSpec, 'body' | 'handler'> {
  body: S;
  // NoInfer: S comes from `body` alone; the handler is typed from it
  handler(call: Call<Static<NoInfer<S>>>): Promise<unknown>;
}

/** Types a route's body for its handler from its schema (the router validated the body against it). */
export function route<S extends TSchema>(spec: BodyRoute<S>): RouteSpec {
  return spec as RouteSpec;
}
