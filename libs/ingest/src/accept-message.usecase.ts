import type { ProjectId } from '@hookrail/domain';
import { DEFAULT_EVENT_TYPE } from './accept-request.usecase';
import { MESSAGE_TYPE_HEADER, readBrokerEnvelope } from './broker-envelope';
import { eventMessage, type AcceptedEvent, type EventStamp } from './event-message';
import type { EventCheck } from './event-validation';
import { prepareEvent, type PreparingSource, type RunFunction } from './prepare-event';
import { publishAccepted, type EventSink } from './publish-accepted';
import { pickForwardHeaders } from './request-headers';

/** The parts of a broker source the rules need (a SourceDoc fits). */
export interface MessageSource extends PreparingSource {
  forward_headers?: string[] | null;
}

export interface MessageProject {
  type: 'incoming' | 'outgoing';
  /** The project's payload limit in bytes. */
  maxPayloadBytes: number;
}

export interface BrokerMessage {
  /** Message attributes / headers, lower-case names. */
  headers: Record<string, string>;
  body: Buffer;
}

export interface AcceptMessageDeps extends EventStamp {
  /** Where the event is published (publishAccepted). */
  sink: EventSink;
  runFunction: RunFunction;
  /** Whether the endpoint exists in the project; may throw a retriable error (database down). */
  endpointExists(projectId: ProjectId, endpointId: string): Promise<boolean>;
  /** The event type catalog's verdict on the event (EventValidator.check with the project's settings). */
  checkEvent(eventType: string, data: unknown, payloadBytes: number): Promise<EventCheck>;
}

/**
 * What the subscriber does with the message: ack (Kafka has the event), leave it for redelivery
 * (a dependency is down), or reject it for good (dead-letter or drop: it can never succeed).
 */
export type MessageOutcome =
  | { kind: 'accepted'; eventId: string }
  | { kind: 'unavailable'; message: string }
  | { kind: 'rejected'; reason: string };

/**
 * A broker message becomes an event on the same path as an HTTP request (prepareEvent: body,
 * idempotency key, header_function, body_function; eventMessage; publishAccepted: Kafka acknowledgement) minus
 * request verification, which the broker's own authentication replaces. A message without a
 * content type is read as JSON. For an outgoing project the (transformed) body is the events
 * API's body, addressed by the message type header.
 */
export async function acceptMessage(
  source: MessageSource,
  project: MessageProject,
  msg: BrokerMessage,
  deps: AcceptMessageDeps,
): Promise<MessageOutcome> {
  if (msg.body.length > project.maxPayloadBytes)
    return reject(
      `message of ${msg.body.length} bytes exceeds the project limit of ${project.maxPayloadBytes}`,
    );
  const headers = { 'content-type': 'application/json', ...msg.headers };
  const prepared = await prepareEvent(source, { headers, rawBody: msg.body, query: '' }, deps.runFunction);
  if (prepared.kind !== 'ok') return reject(prepared.message);
  const event = prepared.event;
  const forward = pickForwardHeaders(event.headers, source.forward_headers ?? []);
  const from = { projectId: source.project_id, sourceId: source._id, headers: event.headers };

  let accepted: Omit<AcceptedEvent, 'verdict'>;
  if (project.type === 'incoming') {
    accepted = {
      ...from,
      eventType: DEFAULT_EVENT_TYPE,
      target: { mode: 'source' },
      data: event.data,
      raw: event.raw,
      forwardHeaders: forward,
      idempotencyKey: event.idempotencyKey,
    };
  } else {
    const read = readBrokerEnvelope(event.data, event.headers[MESSAGE_TYPE_HEADER]);
    if (read.kind === 'invalid') return reject(read.message);
    const env = read.envelope;
    if (
      env.target.mode === 'single' &&
      !(await deps.endpointExists(source.project_id, env.target.endpoint_id))
    )
      return reject(`endpoint_id ${env.target.endpoint_id}: no such endpoint in this project`);
    accepted = {
      ...from,
      eventType: env.event_type,
      target: env.target,
      data: env.data,
      raw: JSON.stringify(env.data),
      forwardHeaders: { ...forward, ...env.custom_headers },
      idempotencyKey: env.idempotency_key ?? event.idempotencyKey,
    };
  }
  // A refused event is dead-lettered with every failing path: it can never succeed as sent.
  const checked = await deps.checkEvent(accepted.eventType, accepted.data, Buffer.byteLength(accepted.raw));
  if (checked.kind === 'refused') return reject(checked.message);
  return publishAccepted(eventMessage({ ...accepted, verdict: checked }, deps), deps.sink);
}

function reject(reason: string): MessageOutcome {
  return { kind: 'rejected', reason };
}
