import type { EventMessage } from '@hookrail/bus';
import type { FunctionResult } from '@hookrail/functions';
import {
  PROVIDER_EVENT_TYPE_HEADER,
  isProvider,
  verifyRequest,
  type OpenSecret,
  type VerifierConfig,
} from '@hookrail/signing';
import { errorMessage, isRetriable, toTimestamp } from '@hookrail/domain';
import { idempotencyKey } from './idempotency';
import { parseBody } from './parse-body';
import { pickForwardHeaders } from './request-headers';

/** The parts of a source the ingest rules need (a SourceDoc fits). */
export interface IngestSource {
  _id: string;
  project_id: string;
  provider?: string | null;
  is_disabled: boolean;
  forward_headers?: string[] | null;
  idempotency_keys?: string[] | null;
  body_function?: string | null;
  header_function?: string | null;
  verifier?: Record<string, unknown> | null;
}

export interface IngestRequest {
  /** Lower-case names (see normaliseHeaders). */
  headers: Record<string, string>;
  rawBody: Buffer;
  /** The query string without `?`. */
  query: string;
}

export interface AcceptRequestDeps {
  /** Resolves once Kafka acknowledged the event; rejects with a retriable error when it is down. */
  publish(message: EventMessage): Promise<void>;
  runFunction(text: string, input: unknown, scope: string): FunctionResult;
  openSecret: OpenSecret;
  newId(): string;
  now(): Date;
}

export type AcceptOutcome =
  | { kind: 'accepted'; eventId: string; idempotencyKey?: string }
  | { kind: 'disabled' }
  | { kind: 'verification_failed'; reason: string }
  | { kind: 'invalid_body'; message: string }
  | { kind: 'unsupported_media_type'; message: string }
  | { kind: 'function_failed'; message: string }
  | { kind: 'unavailable'; message: string };

/** Event type of an HTTP source's event: the provider's type header, else `*`. */
export const DEFAULT_EVENT_TYPE = '*';

/**
 * An HTTP source's request becomes an event: verify the raw bytes, parse the body, run
 * header_function then body_function, compute the idempotency key (from the request as sent, so
 * a transform cannot make distinct requests collide), then publish. Nothing is published unless
 * every step passed; `accepted` means Kafka acknowledged the event. Duplicates are decided when
 * the event is persisted (first event with a key wins), not here.
 */
export async function acceptRequest(
  source: IngestSource,
  req: IngestRequest,
  deps: AcceptRequestDeps,
): Promise<AcceptOutcome> {
  if (source.is_disabled) return { kind: 'disabled' };

  const verifier = (source.verifier ?? null) as VerifierConfig | null;
  const verified = verifyRequest(
    { provider: source.provider, verifier },
    { headers: req.headers, rawBody: req.rawBody },
    deps.openSecret,
  );
  if (!verified.ok) return { kind: 'verification_failed', reason: verified.reason };

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
    const r = deps.runFunction(source.header_function, headers, source.project_id);
    if (r.kind === 'error') return { kind: 'function_failed', message: `header_function: ${r.message}` };
    if (!isStringRecord(r.value)) {
      return { kind: 'function_failed', message: 'header_function must return an object of string values' };
    }
    headers = lowerCaseKeys(r.value);
  }
  let data = body.data;
  let raw = body.raw;
  if (source.body_function) {
    const r = deps.runFunction(source.body_function, data, source.project_id);
    if (r.kind === 'error') return { kind: 'function_failed', message: `body_function: ${r.message}` };
    data = r.value;
    raw = JSON.stringify(data);
  }

  const eventId = deps.newId();
  const typeHeader = isProvider(source.provider) ? PROVIDER_EVENT_TYPE_HEADER[source.provider] : undefined;
  const message: EventMessage = {
    event_id: eventId,
    project_id: source.project_id,
    source_id: source._id,
    event_type: (typeHeader && headers[typeHeader]) || DEFAULT_EVENT_TYPE,
    target: { mode: 'source' },
    data,
    raw,
    headers,
    forward_headers: pickForwardHeaders(headers, source.forward_headers ?? []),
    url_query_params: req.query,
    ...(key ? { idempotency_key: key } : {}),
    accepted_at: toTimestamp(deps.now()),
  };
  try {
    await deps.publish(message);
  } catch (err) {
    if (!isRetriable(err)) throw err;
    return { kind: 'unavailable', message: errorMessage(err) };
  }
  return { kind: 'accepted', eventId, ...(key ? { idempotencyKey: key } : {}) };
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
