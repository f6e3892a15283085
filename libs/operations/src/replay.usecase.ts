import type { DeliveryMessage } from '@hookrail/bus';
import { newId, type ProjectId } from '@hookrail/domain';
import { createdRangeOf, type DeliveryDoc, type EventDoc } from '@hookrail/store';
import { BATCH_LIMIT, type BatchResult } from './batch-retry.usecase';
import type { OperationDeps } from './resend.usecase';

export type ReplayOutcome =
  | { kind: 'replayed'; event: EventDoc; deliveries: DeliveryDoc[] }
  | { kind: 'not_found' }
  | { kind: 'nothing_to_replay' };

/**
 * Replay an event: a new delivery (new id, fresh attempts and retries) for every subscription the
 * event was delivered through, sent as a first attempt through the normal pipeline. The old
 * deliveries stay as they were. An event that never matched a subscription has nothing to replay.
 */
export async function replayEvent(
  deps: OperationDeps,
  projectId: ProjectId,
  eventId: string,
  /** Replay only the deliveries to these endpoints (a portal link's); default: all. */
  onlyEndpoints?: ReadonlySet<string>,
): Promise<ReplayOutcome> {
  const event = await deps.store.events.findById(projectId, eventId);
  if (!event) return { kind: 'not_found' };
  const deliveries = await replayLoaded(deps, projectId, [event], onlyEndpoints);
  return deliveries.length === 0 ? { kind: 'nothing_to_replay' } : { kind: 'replayed', event, deliveries };
}

export interface EventFilter {
  event_ids?: string[];
  source_id?: string;
  /** Events from any of these sources; with source_id too, both must hold. */
  source_ids?: string[];
  start_date?: string;
  end_date?: string;
}

/** Batch replay by filter (event ids, source, time range). */
export async function batchReplay(
  deps: OperationDeps,
  projectId: ProjectId,
  f: EventFilter,
): Promise<BatchResult> {
  const rows = await deps.store.events.list(
    projectId,
    {
      ids: f.event_ids?.length ? f.event_ids : undefined,
      sourceId: f.source_id || undefined,
      sourceIds: f.source_ids,
      createdRange: createdRangeOf(f.start_date, f.end_date),
    },
    BATCH_LIMIT + 1,
  );
  const events = rows.slice(0, BATCH_LIMIT);
  const deliveries = await replayLoaded(deps, projectId, events);
  return { matched: events.length, resent: deliveries.length, more: rows.length > BATCH_LIMIT };
}

async function replayLoaded(
  deps: OperationDeps,
  projectId: ProjectId,
  events: EventDoc[],
  onlyEndpoints?: ReadonlySet<string>,
): Promise<DeliveryDoc[]> {
  if (events.length === 0) return [];
  const existing = await deps.store.deliveries.listByEvents(
    projectId,
    events.map((e) => e._id),
    100_000,
  );
  // the latest delivery per (event, subscription): a replay of a replay copies the newest one
  const latest = new Map<string, DeliveryDoc>();
  for (const d of existing) {
    if (onlyEndpoints && !onlyEndpoints.has(d.endpoint_id)) continue;
    const key = `${d.event_id}/${d.subscription_id}`;
    const seen = latest.get(key);
    if (!seen || seen._id < d._id) latest.set(key, d);
  }
  const perEvent = new Map<string, number>();
  for (const d of latest.values()) perEvent.set(d.event_id, (perEvent.get(d.event_id) ?? 0) + 1);
  const now = new Date();
  const copies: DeliveryDoc[] = [...latest.values()].map((d) => ({
    ...d,
    _id: newId(),
    status: 'Scheduled',
    attempts_made: 0,
    retries_used: 0,
    next_attempt_at: null,
    status_reason: 'replay',
    attempts: [],
    metadata: { ...d.metadata, siblings: perEvent.get(d.event_id), replay_of: d._id },
    created_at: now,
    updated_at: now,
    deleted_at: null,
  }));
  await deps.store.deliveries.insertManyIfAbsent(copies);
  const messages: DeliveryMessage[] = copies.map((d) => ({
    delivery_id: d._id,
    project_id: projectId,
    endpoint_id: d.endpoint_id,
    event_id: d.event_id,
    reason: 'initial',
  }));
  await deps.publisher.publish('deliveries', messages);
  return copies;
}
