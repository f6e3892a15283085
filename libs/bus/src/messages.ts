import { META_EVENT_TYPES, auditRecordResponse } from '@hookrail/api-contract';
import type { DeadLetter, ProjectId } from '@hookrail/domain';
import { Type, type Static } from '@sinclair/typebox';
/**
 * Message shapes on the Kafka topics. Messages carry ids and the facts a consumer needs; MongoDB
 * holds the queryable record. Two messages carry payloads, because Kafka holds them durably before
 * MongoDB does: the event message (the router writes the event document after it was accepted)
 * and a delivery's first send (`first_send`: the sender records the delivery with its first
 * attempt, so nothing is read from MongoDB on the way to the endpoint).
 *
 * Each message is declared once, as a TypeBox schema: its type is the schema's Static type, and the
 * topic catalog (topics.ts) validates what a consumer decodes against the same schema.
 */

const id = Type.String({ minLength: 1 });
const projectId = Type.Unsafe<ProjectId>(id);
const stringMap = Type.Record(Type.String(), Type.String());
/** A string of a fixed set, as one `enum`. */
const oneOf = <const V extends readonly string[]>(values: V) =>
  Type.Unsafe<V[number]>({ type: 'string', enum: [...values] });

/** Where an event should go: by source (incoming projects) or by endpoint/owner/broadcast (outgoing). */
export const EventTargetSchema = Type.Union([
  Type.Object({ mode: Type.Literal('source') }),
  Type.Object({ mode: Type.Literal('single'), endpoint_id: Type.String() }),
  Type.Object({ mode: Type.Literal('fanout'), owner_id: Type.String() }),
  Type.Object({ mode: Type.Literal('broadcast') }),
]);
export type EventTarget = Static<typeof EventTargetSchema>;

export const EventMessageSchema = Type.Object({
  event_id: id,
  project_id: projectId,
  source_id: Type.Optional(Type.String()),
  event_type: Type.String(),
  target: EventTargetSchema,
  /** The payload as JSON (absent when it was `undefined`, which JSON cannot carry). */
  data: Type.Optional(Type.Unknown()),
  /** The payload as received (after body_function, re-serialised). */
  raw: Type.String(),
  /** All request headers as received (lower-case names). */
  headers: stringMap,
  /** Headers to send on to endpoints: forward_headers of the source, or custom_headers of the API. */
  forward_headers: Type.Optional(stringMap),
  url_query_params: Type.Optional(Type.String()),
  idempotency_key: Type.Optional(Type.String()),
  accepted_at: Type.String(),
  /**
   * What the event type catalog found wrong with the event, in a project that checks in `warn`
   * mode (a failing path of `data` and why, or `event_type` for a type the catalog lacks).
   */
  validation_errors: Type.Optional(Type.Array(Type.Object({ field: Type.String(), message: Type.String() }))),
  /**
   * Some subscription of the project orders its deliveries (set by the intake from its cached
   * configuration): the event is keyed by project, so the project's events are routed in the
   * order they were accepted (docs/ordered-delivery.md).
   */
  ordered: Type.Optional(Type.Boolean()),
});
export type EventMessage = Static<typeof EventMessageSchema>;

/** What the first send of a delivery needs and what its document records (set by the router). */
export const FirstSendSchema = Type.Object({
  subscription_id: id,
  source_id: Type.Union([Type.String(), Type.Null()]),
  event_type: Type.String(),
  delivery_mode: oneOf(['at_least_once', 'at_most_once']),
  /** The payload after the subscription function, as sent; null: the event's payload (`raw`). */
  payload: Type.Union([Type.String(), Type.Null()]),
  /** The event's payload as accepted. */
  raw: Type.String(),
  /** Headers to send on (the event's forward/custom headers). */
  forward_headers: stringMap,
  idempotency_key: Type.Union([Type.String(), Type.Null()]),
  /** How many deliveries the event has (its status is derived from all of them). */
  siblings: Type.Integer({ minimum: 1 }),
  /** When the router created the delivery (RFC 3339). */
  created_at: id,
  /**
   * The project's configuration token the router routed with (the newest configuration barrier
   * it had seen): a sender that knows another one checks the subscription again before sending.
   */
  config_version: Type.Optional(Type.String()),
  /** The event's headers as received: the subscription's header filter is checked against them. */
  headers: Type.Optional(stringMap),
  /**
   * The delivery's ordering key when its subscription orders deliveries: `endpoint`, or
   * `key:<value>` read from the event (docs/ordered-delivery.md). Absent: not ordered.
   */
  ordering_key: Type.Optional(Type.String()),
});
export type FirstSend = Static<typeof FirstSendSchema>;

export const DeliveryMessageSchema = Type.Object({
  delivery_id: id,
  project_id: projectId,
  endpoint_id: id,
  event_id: id,
  /**
   * Why this send happens now: first try, a due retry, a manual resend, or `released`: the
   * earlier delivery of its ordering key ended (docs/ordered-delivery.md).
   */
  reason: oneOf(['initial', 'retry', 'resend', 'released']),
  /**
   * A fired retry's due time (RFC 3339): a delivery whose next attempt is due later by now was
   * scheduled again since, so this copy (a retry fired twice around a scheduler restart) is stale.
   */
  due_at: Type.Optional(id),
  /** Set on the router's first send: the delivery has no document yet; everything is here. */
  first_send: Type.Optional(FirstSendSchema),
});
export type DeliveryMessage = Static<typeof DeliveryMessageSchema>;

const metaEventType = oneOf(META_EVENT_TYPES);

export const RetryMessageSchema = Type.Object({
  delivery_id: id,
  project_id: projectId,
  endpoint_id: id,
  /** When the delivery may be sent again (RFC 3339). */
  due_at: id,
  reason: oneOf(['failed', 'rate_limited', 'circuit_open', 'paused']),
  /** Set for meta events, which retry through the same scheduler but go back to their own topic. */
  kind: Type.Optional(oneOf(['delivery', 'meta'])),
  /** The delivery's event (deliveries): carried so the scheduler can fire without reading MongoDB. */
  event_id: Type.Optional(Type.String()),
  /** The meta event's type (kind `meta`): the MetaMessage published when due needs it. */
  meta_event_type: Type.Optional(metaEventType),
});
export type RetryMessage = Static<typeof RetryMessageSchema>;

export const MetaMessageSchema = Type.Object({
  project_id: projectId,
  event_type: metaEventType,
  /** Set when an already stored meta event is (re)sent; absent for a new occurrence. */
  meta_event_id: Type.Optional(Type.String()),
  /** The meta event's payload (absent when it was `undefined`, which JSON cannot carry). */
  data: Type.Optional(Type.Unknown()),
  occurred_at: id,
});
export type MetaMessage = Static<typeof MetaMessageSchema>;

export const ConfigMessageSchema = Type.Object({
  project_id: projectId,
  resource: oneOf(['project', 'source', 'endpoint', 'subscription', 'portal_link']),
  id,
  op: oneOf(['created', 'updated', 'deleted']),
});
export type ConfigMessage = Static<typeof ConfigMessageSchema>;

/**
 * A configuration barrier: the project's configuration changed and the change is committed. It is
 * put on every partition of the topics whose consumers cache configuration (topics.ts
 * `BARRIER_TOPICS`) before the changing API call returns, beside the messages of the topic (marked
 * by a header, so it is not one of them). `token` is fresh for every change: a delivery routed
 * under an older token is checked again when sent.
 */
export const ConfigBarrierSchema = Type.Object({
  project_id: projectId,
  token: id,
});
export type ConfigBarrier = Static<typeof ConfigBarrierSchema>;

/**
 * A state-changing API call, recorded once it was answered (the gateway publishes it without
 * waiting; meta-event stores it): the audit log's record as the API answers it, with its id made
 * at the call, so a redelivered message stores nothing twice.
 */
export const AuditMessageSchema = Type.Object({
  ...auditRecordResponse.properties,
  // the codec checks shapes, not formats: the gateway wrote these with toISOString()
  created_at: Type.String(),
  aggregate: Type.Optional(
    Type.Object({
      ...auditRecordResponse.properties.aggregate.properties,
      first_at: Type.String(),
      last_at: Type.String(),
    }),
  ),
});
export type AuditMessage = Static<typeof AuditMessageSchema>;

/** A message a consumer gave up on, as its dead-letter topic carries it (declared in libs/domain). */
export type DeadLetterMessage = DeadLetter;
