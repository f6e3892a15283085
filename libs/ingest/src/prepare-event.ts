import type { FunctionResult } from '@hookrail/functions';
import { idempotencyKey } from './idempotency';
import { parseBody } from './parse-body';
import type { ProjectId } from '@hookrail/domain';

/** The parts of a source that shape its events (a SourceDoc fits). */
export interface PreparingSource {
  _id: string;
  project_id: ProjectId;
  idempotency_keys?: string[] | null;
  body_function?: string | null;
  header_function?: string | null;
}

export interface PrepareInput {
  /** Lower-case names. */
  headers: Record<string, string>;
  rawBody: Buffer;
  /** The query string without `?` (empty for broker messages). */
  query: string;
}

export type RunFunction = (
  text: string,
  input: unknown,
  scope: string,
) => FunctionResult | Promise<FunctionResult>;

export interface PreparedEvent {
  headers: Record<string, string>;
  data: unknown;
  raw: string;
  idempotencyKey?: string;
}

export type PrepareOutcome =
  | { kind: 'ok'; event: PreparedEvent }
  | { kind: 'invalid_body'; message: string }
  | { kind: 'unsupported_media_type'; message: string }
  | { kind: 'function_failed'; message: string };

/**
 * The steps every ingested payload takes, from HTTP or from a broker: parse the body, compute the
 * idempotency key (from the payload as sent, so a transform cannot make distinct payloads
 * collide), then run header_function and body_function.
 */
export async function prepareEvent(
  source: PreparingSource,
  req: PrepareInput,
  run: RunFunction,
): Promise<PrepareOutcome> {
  const body = parseBody(req.rawBody, req.headers['content-type']);
  if (body.kind === 'invalid') return { kind: 'invalid_body', message: body.message };
  if (body.kind === 'unsupported') return { kind: 'unsupported_media_type', message: body.message };
  const key = idempotencyKey(source._id, source.idempotency_keys ?? [], {
    headers: req.headers,
    query: new URLSearchParams(req.query),
    data: body.data,
  });

  let headers = req.headers;
  if (source.header_function) {
    const r = await run(source.header_function, headers, source.project_id);
    if (r.kind === 'error') return { kind: 'function_failed', message: `header_function: ${r.message}` };
    if (!isStringRecord(r.value)) {
      return { kind: 'function_failed', message: 'header_function must return an object of string values' };
    }
    headers = lowerCaseKeys(r.value);
  }

  let data = body.data;
  let raw = body.raw;
  if (source.body_function) {
    const r = await run(source.body_function, data, source.project_id);
    if (r.kind === 'error') return { kind: 'function_failed', message: `body_function: ${r.message}` };
    data = r.value;
    raw = JSON.stringify(data);
  }
  return { kind: 'ok', event: { headers, data, raw, ...(key ? { idempotencyKey: key } : {}) } };
}

function isStringRecord(v: unknown): v is Record<string, string> {
  return (
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    Object.values(v).every((x) => typeof x === 'string')
  );
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}
