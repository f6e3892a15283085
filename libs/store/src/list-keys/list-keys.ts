/**
 * List keys: every value a list of events or deliveries selects by, as one tagged string each in
 * one multikey field (`keys`), under one index `{project_id, keys, _id: -1}` per collection in place
 * of one index per list (docs/database.md, "Indexes"). Each document carries `ALL`, so the
 * project-wide list and a read by id are a key too. Only libs/store builds or reads them.
 */
import type { DeliveryDoc, DeliveryStatus } from '../deliveries/delivery.schema';
import type { EventDoc } from '../events/event.schema';

/** The key every document carries: the project-wide list, reads by id. */
export const ALL = '*';

/** The index that holds them. */
export const KEYS_INDEX = { project_id: 1, keys: 1, _id: -1 } as const;

export const eventKey = {
  source: (id: string) => `S|${id}`,
  endpoint: (id: string) => `E|${id}`,
  idempotency: (key: string) => `K|${key}`,
};

export const deliveryKey = {
  event: (id: string) => `V|${id}`,
  endpoint: (id: string) => `E|${id}`,
  status: (s: DeliveryStatus) => `S|${s}`,
  endpointStatus: (endpointId: string, s: DeliveryStatus) => `ES|${endpointId}|${s}`,
};

type EventKeyed = Pick<EventDoc, 'source_id' | 'endpoints' | 'idempotency_key'>;

export function eventKeys(e: EventKeyed): string[] {
  return [
    ALL,
    ...(e.source_id ? [eventKey.source(e.source_id)] : []),
    ...(e.endpoints ?? []).map(eventKey.endpoint),
    ...(e.idempotency_key !== null && e.idempotency_key !== undefined
      ? [eventKey.idempotency(e.idempotency_key)]
      : []),
  ];
}

/** A delivery's keys change with its status: every write that sets a status sets them too. */
export function deliveryKeys(
  d: Pick<DeliveryDoc, 'event_id' | 'endpoint_id'>,
  status: DeliveryStatus,
): string[] {
  return [
    ALL,
    deliveryKey.event(d.event_id),
    deliveryKey.endpoint(d.endpoint_id),
    deliveryKey.status(status),
    deliveryKey.endpointStatus(d.endpoint_id, status),
  ];
}

/**
 * The filter on `keys` for a list that must match one of each set of alternatives (a set per kind
 * of key: sources, endpoints, …; no set: every document). One set is one value or a `$in`, planned
 * on the index; several sets are an `$and` of them (rare combinations: the server may scan).
 */
export function keysFilter(required: readonly (readonly string[])[]): Record<string, unknown> {
  const one = (values: readonly string[]) => (values.length === 1 ? values[0] : { $in: [...values] });
  if (required.length === 0) return { keys: ALL };
  if (required.length === 1) return { keys: one(required[0]) };
  return { $and: required.map((values) => ({ keys: one(values) })) };
}
