import {
  PROVIDER_EVENT_TYPE_HEADER,
  isProvider,
  verifyRequest,
  type OpenSecret,
  type VerifierConfig,
} from '@hookrail/signing';
import type { FieldError, ProjectId } from '@hookrail/domain';
import { eventMessage, type EventStamp } from './event-message';
import type { EventCheck } from './event-validation';
import { prepareEvent, type RunFunction } from './prepare-event';
import { publishAccepted, type EventSink } from './publish-accepted';
import { pickForwardHeaders } from './request-headers';

/** The parts of a source the ingest rules need (a SourceDoc fits). */
export interface IngestSource {
  _id: string;
  project_id: ProjectId;
  provider?: string | null;
  is_disabled: boolean;
  forward_headers?: string[] | null;
  idempotency_keys?: string[] | null;
  body_function?: string | null;
  header_function?: string | null;
  verifier?: Record<string, unknown> | null;
}

export interface IngestRequest {
  /** Lower-case names (@hookrail/domain `normaliseHeaders`). */
  headers: Record<string, string>;
  rawBody: Buffer;
  /** The query string without `?`. */
  query: string;
}

export interface AcceptRequestDeps extends EventStamp {
  /** Where the event is published (publishAccepted). */
  sink: EventSink;
  runFunction: RunFunction;
  openSecret: OpenSecret;
  /** The event type catalog's verdict on the event (EventValidator.check with the project's settings). */
  checkEvent(eventType: string, data: unknown, payloadBytes: number): Promise<EventCheck>;
}

export type AcceptOutcome =
  | { kind: 'accepted'; eventId: string; idempotencyKey?: string }
  | { kind: 'disabled' }
  | { kind: 'verification_failed'; reason: string }
  | { kind: 'invalid_body'; message: string }
  | { kind: 'unsupported_media_type'; message: string }
  | { kind: 'function_failed'; message: string }
  | { kind: 'invalid_event'; message: string; errors: FieldError[] }
  | { kind: 'unavailable'; message: string };

/** Event type of an HTTP source's event: the provider's type header, else `*`. */
export const DEFAULT_EVENT_TYPE = '*';

/**
 * An HTTP source's request becomes an event: verify the raw bytes, parse the body, run
 * header_function then body_function, check the event against the catalog, compute the idempotency key (from the request as sent, so
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
  const prepared = await prepareEvent(source, req, deps.runFunction);
  if (prepared.kind !== 'ok') return prepared;
  const { headers, data, raw, idempotencyKey: key } = prepared.event;

  const typeHeader = isProvider(source.provider) ? PROVIDER_EVENT_TYPE_HEADER[source.provider] : undefined;
  const eventType = (typeHeader && headers[typeHeader]) || DEFAULT_EVENT_TYPE;
  const checked = await deps.checkEvent(eventType, data, Buffer.byteLength(raw));
  if (checked.kind === 'refused')
    return { kind: 'invalid_event', message: checked.message, errors: checked.violations };
  const message = eventMessage(
    {
      projectId: source.project_id,
      sourceId: source._id,
      eventType,
      target: { mode: 'source' },
      data,
      raw,
      headers,
      forwardHeaders: pickForwardHeaders(headers, source.forward_headers ?? []),
      query: req.query,
      idempotencyKey: key,
      verdict: checked,
    },
    deps,
  );
  const published = await publishAccepted(message, deps.sink);
  if (published.kind === 'unavailable') return published;
  return { kind: 'accepted', eventId: message.event_id, ...(key ? { idempotencyKey: key } : {}) };
}
