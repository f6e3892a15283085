import type { EventMessage } from '@hookrail/bus';
import { toTimestamp, type ProjectId } from '@hookrail/domain';
import { DEFAULT_EVENT_TYPE } from './accept-request.usecase';
import { MESSAGE_TYPE_HEADER, readBrokerEnvelope } from './broker-envelope';
import type { EventCheck } from './event-validation';
import { prepareEvent, type PreparingSource, type RunFunction } from './prepare-event';
import { publishAccepted } from './publish-accepted';
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

export interface AcceptMessageDeps {
  /** Resolves once Kafka acknowledged the event; rejects with a retriable error when it is down. */
  publish(message: EventMessage): Promise<void>;
  runFunction: RunFunction;
  /** Whether the endpoint exists in the project; may throw a retriable error (database down). */
  endpointExists(projectId: ProjectId, endpointId: string): Promise<boolean>;
  /** The event type catalog's verdict on the event (EventValidator.check with the project's settings). */
  checkEvent(eventType: string, data: unknown, payloadBytes: number): Promise<EventCheck>;
  newId(): string;
  now(): Date;
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
 * idempotency key, header_function, body_function; publishAccepted: Kafka acknowledgement) minus
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

  let message: EventMessage;
  if (project.type === 'incoming') {
    message = {
      event_id: deps.newId(),
      project_id: source.project_id,
      source_id: source._id,
      event_type: DEFAULT_EVENT_TYPE,
      target: { mode: 'source' },
      data: event.data,
      raw: event.raw,
      headers: event.headers,
      forward_headers: forward,
      ...(event.idempotencyKey ? { idempotency_key: event.idempotencyKey } : {}),
      accepted_at: toTimestamp(deps.now()),
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
    const key = env.idempotency_key ?? event.idempotencyKey;
    message = {
      event_id: deps.newId(),
      project_id: source.project_id,
      source_id: source._id,
      event_type: env.event_type,
      target: env.target,
      data: env.data,
      raw: JSON.stringify(env.data),
      headers: event.headers,
      forward_headers: { ...forward, ...env.custom_headers },
      ...(key ? { idempotency_key: key } : {}),
      accepted_at: toTimestamp(deps.now()),
    };
  }
  // A refused event is dead-lettered with every failing path: it can never succeed as sent.
  const checked = await deps.checkEvent(message.event_type, message.data, Buffer.byteLength(message.raw));
  if (checked.kind === 'refused') return reject(checked.message);
  if (checked.violations.length > 0) message.validation_errors = checked.violations;
  return publishAccepted(message, deps.publish);
}

function reject(reason: string): MessageOutcome {
  return { kind: 'rejected', reason };
}
