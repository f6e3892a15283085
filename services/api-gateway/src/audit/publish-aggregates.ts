import type { AuditRecord } from '@hookrail/api-contract';
import { idFrom, newId, toTimestamp } from '@hookrail/domain';

/** A call's record as it would be on its own, before it has an id and a time. */
export type CallRecord = Omit<AuditRecord, 'uid' | 'created_at' | 'aggregate'>;

/** One answered call that sent events: its record, when it was answered, the events it created. */
export interface PublishCall {
  record: CallRecord;
  /** Epoch milliseconds. */
  at: number;
  eventIds: readonly string[];
}

/** The events ids an aggregated record names: enough to find the calls' first events. */
export const MAX_EVENT_IDS = 20;

interface Aggregate {
  windowEnd: number;
  record: CallRecord;
  count: number;
  firstAt: number;
  lastAt: number;
  eventIds: string[];
}

/**
 * Calls that sent events, counted in memory instead of one audit record each (one per event
 * doubled the writes on the delivery path): one aggregate per window (`windowMs`, aligned on the
 * epoch) and per project, actor, operation, status and client address. The first call gives the
 * record's other fields (method, path, user agent, body fields). At most `maxAggregates` are open:
 * a new one past that closes the oldest early, so a flood of distinct callers costs records, not
 * memory. Pure: the caller owns the clock and the timer.
 */
export class PublishAggregates {
  private readonly open = new Map<string, Aggregate>();

  constructor(private readonly opts: { windowMs: number; maxAggregates: number }) {}

  get size(): number {
    return this.open.size;
  }

  /** Counts `call`; answers the records of the aggregates it closed early (the cap), if any. */
  add(call: PublishCall): AuditRecord[] {
    const windowEnd = (Math.floor(call.at / this.opts.windowMs) + 1) * this.opts.windowMs;
    const key = `${windowEnd} ${identityOf(call.record)}`;
    const open = this.open.get(key);
    if (open) {
      open.count += 1;
      open.firstAt = Math.min(open.firstAt, call.at);
      open.lastAt = Math.max(open.lastAt, call.at);
      for (const id of call.eventIds) if (open.eventIds.length < MAX_EVENT_IDS) open.eventIds.push(id);
      return [];
    }
    // a Map iterates in insertion order: its first key is the oldest aggregate
    const early =
      this.open.size >= this.opts.maxAggregates ? this.take([this.open.keys().next().value!], call.at) : [];
    this.open.set(key, {
      windowEnd,
      record: call.record,
      count: 1,
      firstAt: call.at,
      lastAt: call.at,
      eventIds: call.eventIds.slice(0, MAX_EVENT_IDS),
    });
    return early;
  }

  /** The records of the aggregates whose window ended by `now`, which are forgotten. */
  closed(now: number): AuditRecord[] {
    return this.take(
      [...this.open].filter(([, a]) => a.windowEnd <= now).map(([key]) => key),
      now,
    );
  }

  /** Every open aggregate's record (a graceful stop), each dated `now` if its window has not ended. */
  all(now: number): AuditRecord[] {
    return this.take([...this.open.keys()], now);
  }

  private take(keys: string[], now: number): AuditRecord[] {
    return keys.map((key) => {
      const aggregate = this.open.get(key)!;
      this.open.delete(key);
      return recordOf(aggregate, now);
    });
  }
}

/** What tells two calls' aggregates apart besides the window. */
function identityOf({ project_id, actor, operation, status, ip }: CallRecord): string {
  return JSON.stringify([
    project_id,
    actor.kind,
    actor.via,
    actor.key_id,
    actor.user_id,
    actor.portal_link_id,
    operation,
    status,
    ip,
  ]);
}

/**
 * Dated at its window's end, or when it was closed early (the cap, a stop). The id's time is that
 * date, so the log's time filters (which read the id) agree with `created_at`; its random part is
 * made here, so a record published twice (the outbox) is still one record.
 */
function recordOf(a: Aggregate, now: number): AuditRecord {
  const createdAt = Math.min(a.windowEnd, now);
  return {
    uid: idFrom(newId(), createdAt),
    ...a.record,
    resource: { type: 'event', id: null },
    changes: null,
    created_at: toTimestamp(createdAt),
    aggregate: {
      count: a.count,
      first_at: toTimestamp(a.firstAt),
      last_at: toTimestamp(a.lastAt),
      event_ids: a.eventIds,
    },
  };
}
