import type { EventTarget } from '@hookrail/bus';
import { eventTypePatternProblem } from '@hookrail/filters';

/** Header (message attribute) that picks how an outgoing project's message is addressed. */
export const MESSAGE_TYPE_HEADER = 'x-hookrail-message-type';
export const MESSAGE_TYPES = ['single', 'fanout', 'broadcast'] as const;

/** What an outgoing project's broker message carries, as the events API takes it. */
export interface BrokerEnvelope {
  target: EventTarget;
  event_type: string;
  data: unknown;
  custom_headers: Record<string, string>;
  idempotency_key?: string;
}

export type EnvelopeOutcome = { kind: 'ok'; envelope: BrokerEnvelope } | { kind: 'invalid'; message: string };

const FIELDS = new Set([
  'endpoint_id',
  'owner_id',
  'event_type',
  'data',
  'custom_headers',
  'idempotency_key',
]);

/**
 * Reads `{endpoint_id?, owner_id?, event_type, data, custom_headers?, idempotency_key?}` with the
 * message type from its header (default single): single needs endpoint_id, fanout owner_id.
 * Problems are named field by field, so a dropped message's log says what to fix.
 */
export function readBrokerEnvelope(body: unknown, messageType: string | undefined): EnvelopeOutcome {
  const invalid = (message: string): EnvelopeOutcome => ({ kind: 'invalid', message });
  const type = (messageType ?? 'single').trim().toLowerCase() || 'single';
  if (!(MESSAGE_TYPES as readonly string[]).includes(type))
    return invalid(`${MESSAGE_TYPE_HEADER} must be one of ${MESSAGE_TYPES.join(', ')}, not "${type}"`);
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return invalid('message body must be a JSON object {event_type, data, ...}');
  const b = body as Record<string, unknown>;
  const unknown = Object.keys(b).filter((k) => !FIELDS.has(k));
  if (unknown.length > 0) return invalid(`unknown field(s) in message body: ${unknown.join(', ')}`);
  if (typeof b.event_type !== 'string' || b.event_type.length === 0)
    return invalid('event_type is required (a non-empty string)');
  const pattern = eventTypePatternProblem(b.event_type);
  if (pattern) return invalid(`event_type: ${pattern}`);
  if (!('data' in b) || b.data === undefined) return invalid('data is required');
  for (const f of ['endpoint_id', 'owner_id', 'idempotency_key'] as const)
    if (b[f] !== undefined && (typeof b[f] !== 'string' || b[f] === ''))
      return invalid(`${f} must be a non-empty string`);
  const custom = b.custom_headers ?? {};
  if (
    typeof custom !== 'object' ||
    custom === null ||
    Array.isArray(custom) ||
    !Object.values(custom).every((v) => typeof v === 'string')
  )
    return invalid('custom_headers must be an object of string values');

  let target: EventTarget;
  if (type === 'single') {
    if (typeof b.endpoint_id !== 'string') return invalid('endpoint_id is required for message type single');
    target = { mode: 'single', endpoint_id: b.endpoint_id };
  } else if (type === 'fanout') {
    if (typeof b.owner_id !== 'string') return invalid('owner_id is required for message type fanout');
    target = { mode: 'fanout', owner_id: b.owner_id };
  } else {
    target = { mode: 'broadcast' };
  }
  return {
    kind: 'ok',
    envelope: {
      target,
      event_type: b.event_type,
      data: b.data,
      custom_headers: Object.fromEntries(
        Object.entries(custom as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]),
      ),
      ...(typeof b.idempotency_key === 'string' ? { idempotency_key: b.idempotency_key } : {}),
    },
  };
}
