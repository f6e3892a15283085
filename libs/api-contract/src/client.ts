import type { TSchema } from '@sinclair/typebox';
import { SURFACE_PREFIX, type BodyOf, type Operation, type PathParams, type ResponseOf } from './operation';

/** Query values as the API reads them: a list is the parameter repeated. */
export type QueryValues = Record<string, string | number | boolean | readonly string[] | undefined | null>;

/** What a call of `O` needs: its path parameters, its query and its body, each only when it has one. */
export type CallArgs<O extends Operation> = ([keyof PathParams<O>] extends [never]
  ? { params?: undefined }
  : { params: PathParams<O> }) &
  (O extends { body: TSchema } ? { body: BodyOf<O> } : { body?: undefined }) & { query?: QueryValues };

/** The URL of one call: the surface's prefix, the path with its parameters, then the query. */
export function operationUrl(
  op: Operation,
  params: Record<string, string> = {},
  query: QueryValues = {},
): string {
  const path = op.path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${op.operationId}: missing path parameter ${name}`);
    return encodeURIComponent(value);
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    for (const v of Array.isArray(value) ? value : [value]) search.append(key, String(v));
  }
  const qs = search.toString();
  return `${SURFACE_PREFIX[op.surface]}${path}${qs ? `?${qs}` : ''}`;
}

/** Sends one request and answers the envelope's `data` (throwing on an error envelope). */
export type Transport = (method: string, url: string, body?: unknown) => Promise<unknown>;

/** Operations with neither path parameters nor a body may be called without arguments. */
export type Caller = <O extends Operation>(
  op: O,
  ...args: [keyof PathParams<O>] extends [never]
    ? O extends { body: TSchema }
      ? [args: CallArgs<O>]
      : [args?: CallArgs<O>]
    : [args: CallArgs<O>]
) => Promise<ResponseOf<O>>;

/** A typed caller over a transport: `call(operations.getEndpoint, { params: { projectID, endpointID } })`. */
export function createCaller(send: Transport): Caller {
  return ((
    op: Operation,
    args: { params?: Record<string, string>; query?: QueryValues; body?: unknown } = {},
  ) => send(op.method.toUpperCase(), operationUrl(op, args.params, args.query), args.body)) as Caller;
}
