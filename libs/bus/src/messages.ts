import type { DeadLetter, ProjectId } from '@hookrail/domain';
/**
 * Message shapes on the Kafka topics. Messages carry ids and the facts a consumer needs; MongoDB
 * holds the queryable record. Two messages carry payloads, because Kafka holds them durably before
 * MongoDB does: the event message (the router writes the event document after it was accepted)
 * and a delivery's first send (`first_send`: the sender records the delivery with its first
 * attempt, so nothing is read from MongoDB on the way to the endpoint).
 */

/** Where an event should go: by source (incoming projects) or by endpoint/owner/broadcast (outgoing). */
export type EventTarget =
  | { mode: 'source' }
  | { mode: 'single'; endpoint_id: string }
  | { mode: 'fanout'; owner_id: string }
  | { mode: 'broadcast' };

export interface EventMessage {
  event_id: string;
  project_id: ProjectId;
  source_id?: string;
  event_type: string;
  target: EventTarget;
  /** The payload as JSON. */
  data: unknown;
  /** The payload as received (after body_function, re-serialised). */
  raw: string;
  /** All request headers as received (lower-case names). */
  headers: Record<string, string>;
  /** Headers to send on to endpoints: forward_headers of the source, or custom_headers of the API. */
  forward_headers?: Record<string, string>;
  url_query_params?: string;
  idempotency_key?: string;
  accepted_at: string;
}

/** What the first send of a delivery needs and what its document records (set by the router). */
export interface FirstSend {
  subscription_id: string;
  source_id: string | null;
  event_type: string;
  delivery_mode: 'at_least_once' | 'at_most_once';
  /** The payload after the subscription function, as sent; null: the event's payload (`raw`). */
  payload: string | null;
  /** The event's payload as accepted. */
  raw: string;
  /** Headers to send on (the event's forward/custom headers). */
  forward_headers: Record<string, string>;
  idempotency_key: string | null;
  /** How many deliveries the event has (its status is derived from all of them). */
  siblings: number;
  /** When the router created the delivery (RFC 3339). */
  created_at: string;
  /**
   * The project's configuration token the router routed with (libs/store config-versions): a
   * sender that knows a newer one checks the subscription again before sending.
   */
  config_version?: string;
  /** The event's headers as received: the subscription's header filter is checked against them. */
  headers?: Record<string, string>;
}

export interface DeliveryMessage {
  delivery_id: string;
  project_id: ProjectId;
  endpoint_id: string;
  event_id: string;
  /** Why this send happens now: first try, a due retry, a manual resend. */
  reason: 'initial' | 'retry' | 'resend';
  /** Set on the router's first send: the delivery has no document yet; everything is here. */
  first_send?: FirstSend;
}

export interface RetryMessage {
  delivery_id: string;
  project_id: ProjectId;
  endpoint_id: string;
  /** When the delivery may be sent again (RFC 3339). */
  due_at: string;
  reason: 'failed' | 'rate_limited' | 'circuit_open' | 'paused';
  /** Set for meta events, which retry through the same scheduler but go back to their own topic. */
  kind?: 'delivery' | 'meta';
  /** The delivery's event (deliveries): carried so the scheduler can fire without reading MongoDB. */
  event_id?: string;
  /** The meta event's type (kind `meta`): the MetaMessage published when due needs it. */
  meta_event_type?: MetaEventType;
}

/** Meta event types: what a project can select and receive. */
export const META_EVENT_TYPES = [
  'endpoint.created',
  'endpoint.updated',
  'endpoint.deleted',
  'endpoint.disabled',
  'eventdelivery.success',
  'eventdelivery.failed',
  'endpoint.alert',
  // A broker source's broker became unreachable / consumption resumed (source-consumer).
  'source.unreachable',
  'source.recovered',
] as const;

export type MetaEventType = (typeof META_EVENT_TYPES)[number];

export interface MetaMessage {
  project_id: ProjectId;
  event_type: MetaEventType;
  /** Set when an already stored meta event is (re)sent; absent for a new occurrence. */
  meta_event_id?: string;
  data: unknown;
  occurred_at: string;
}

export interface ConfigMessage {
  project_id: ProjectId;
  resource: 'project' | 'source' | 'endpoint' | 'subscription' | 'portal_link';
  id: string;
  op: 'created' | 'updated' | 'deleted';
}

/** A message a consumer gave up on, as its dead-letter topic carries it. */
export type DeadLetterMessage = DeadLetter;
