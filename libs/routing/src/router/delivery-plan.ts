import type { DeliveryMessage, EventMessage } from '@hookrail/bus';
import type { FunctionResult } from '@hookrail/functions';
import type { DeliveryDoc, EndpointDoc, SubscriptionDoc } from '@hookrail/store';
import { deliveryId } from '../delivery-id';

/**
 * The delivery one matching subscription makes of an event: Discarded for an inactive endpoint,
 * Failure when the subscription's function failed (`transformed`: its result, when it has one),
 * otherwise Scheduled for the sender. The id is derived from the event and the subscription, so a
 * redelivered event message makes the same delivery.
 */
export function plannedDelivery(
  m: EventMessage,
  sub: SubscriptionDoc,
  endpoint: Pick<EndpointDoc, '_id' | 'status'>,
  transformed: FunctionResult | null,
  now: Date,
): DeliveryDoc {
  const inactive = endpoint.status === 'inactive';
  const failed = !inactive && transformed?.kind === 'error' ? transformed.message : null;
  return {
    _id: deliveryId(m.event_id, sub._id, Date.parse(m.accepted_at) || now.getTime()),
    project_id: m.project_id,
    event_id: m.event_id,
    endpoint_id: endpoint._id,
    subscription_id: sub._id,
    source_id: m.source_id ?? null,
    event_type: m.event_type,
    status: inactive ? 'Discarded' : failed !== null ? 'Failure' : 'Scheduled',
    delivery_mode: sub.delivery_mode ?? 'at_least_once',
    payload: !inactive && transformed?.kind === 'ok' ? JSON.stringify(transformed.value) : null,
    attempts_made: 0,
    retries_used: 0,
    next_attempt_at: null,
    status_reason: inactive
      ? 'endpoint is inactive'
      : failed !== null
        ? `subscription function failed: ${failed}`
        : null,
    attempts: [],
    metadata: {},
    created_at: now,
    updated_at: now,
    deleted_at: null,
  };
}

/**
 * The message of a delivery's first send: it carries everything the sender needs, so the send
 * reads no delivery document (the sender writes it with the first attempt). `configVersion` lets
 * the sender tell a configuration change made between routing and sending.
 */
export function firstSendMessage(m: EventMessage, d: DeliveryDoc, configVersion: string): DeliveryMessage {
  return {
    delivery_id: d._id,
    project_id: m.project_id,
    endpoint_id: d.endpoint_id,
    event_id: m.event_id,
    reason: 'initial',
    first_send: {
      subscription_id: d.subscription_id,
      source_id: d.source_id,
      event_type: d.event_type,
      delivery_mode: d.delivery_mode,
      payload: d.payload,
      raw: m.raw,
      forward_headers: m.forward_headers ?? {},
      idempotency_key: m.idempotency_key ?? null,
      siblings: Number(d.metadata.siblings ?? 1),
      created_at: d.created_at.toISOString(),
      config_version: configVersion,
      headers: m.headers,
      ...(typeof d.metadata.ordering_key === 'string' && { ordering_key: d.metadata.ordering_key }),
    },
  };
}
