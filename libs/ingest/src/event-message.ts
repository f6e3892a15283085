import type { EventMessage, EventTarget } from '@hookrail/bus';
import { toTimestamp, type ProjectId } from '@hookrail/domain';
import type { EventCheck } from './event-validation';

/**
 * What an entry point knows of an event it accepts: the events API, an HTTP source, a broker
 * source (and any source to come). Each reads its own input into this; `eventMessage` makes the
 * one message every intake publishes.
 */
export interface AcceptedEvent {
  projectId: ProjectId;
  /** The source it came through; absent for the events API. */
  sourceId?: string;
  eventType: string;
  /** `{ mode: 'source' }` for an incoming project's source; the addressed endpoints otherwise. */
  target: EventTarget;
  /**
   * The payload. Left out (the key absent, not `undefined`) when `raw` is exactly its JSON text,
   * which the router then parses once (the events API).
   */
  data?: unknown;
  /** The payload as received (after body_function, re-serialised). */
  raw: string;
  /** Every header as received, lower-case names. */
  headers: Record<string, string>;
  /** Headers to send on to endpoints: the source's forward_headers, or the API's custom_headers. */
  forwardHeaders: Record<string, string>;
  /** An HTTP source's query string without `?`. */
  query?: string;
  idempotencyKey?: string;
  /** The event type catalog's verdict: its violations are recorded on the event (warn mode). */
  verdict: Extract<EventCheck, { kind: 'accepted' }>;
}

/** Where an event's id and acceptance time come from. */
export interface EventStamp {
  newId(): string;
  now(): Date;
}

/**
 * The event message of `hookrail.events`, built here for every intake. `ordered` is not set here:
 * publishing sets it from the project's subscriptions (`publishToEventsTopic`), and the publisher
 * adds the trace context to the Kafka message's headers.
 */
export function eventMessage(event: AcceptedEvent, stamp: EventStamp): EventMessage {
  const violations = event.verdict.violations;
  return {
    event_id: stamp.newId(),
    project_id: event.projectId,
    ...(event.sourceId !== undefined && { source_id: event.sourceId }),
    event_type: event.eventType,
    target: event.target,
    ...('data' in event && { data: event.data }),
    raw: event.raw,
    headers: event.headers,
    forward_headers: event.forwardHeaders,
    ...(event.query !== undefined && { url_query_params: event.query }),
    ...(event.idempotencyKey !== undefined && { idempotency_key: event.idempotencyKey }),
    accepted_at: toTimestamp(stamp.now()),
    ...(violations.length > 0 && { validation_errors: violations }),
  };
}
