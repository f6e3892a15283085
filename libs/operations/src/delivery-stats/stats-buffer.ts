import {
  ALL_ENDPOINTS,
  type CountedOutcome,
  type DeliveryStatsIncrement,
  type EventTypeSighting,
  type Store,
} from '@hookrail/store';
import type { Logger } from '@hookrail/telemetry';
import { SumBuffer } from '@hookrail/toolbox';
import { latencyBucket } from './latency-buckets';

/**
 * Adds outcomes up in memory per (project, endpoint, minute) — and per (project, "*", minute) for
 * the project's totals — and writes them every couple of seconds as one bulk write of `$inc`
 * upserts, with the (endpoint, event type) pairs seen meanwhile as one bulk write of upserts.
 * Best-effort (toolbox SumBuffer): it never delays or fails a delivery; a failed write is logged
 * and its counts dropped. A graceful stop flushes what is pending (the dispatcher's stop); counts
 * not yet written are lost only if the process dies (the charts are a picture, the deliveries stay
 * the record). One buffer per process, made by its wiring, so every sender shares one flush.
 */
export class DeliveryStatsBuffer {
  private readonly rows: SumBuffer<DeliveryStatsIncrement>;
  private readonly seen: SumBuffer<EventTypeSighting>;

  constructor(
    store: Pick<Store, 'deliveryStats' | 'eventTypes'>,
    logger: Pick<Logger, 'warn'>,
    flushMs?: number,
  ) {
    this.rows = new SumBuffer({
      write: (rows) => store.deliveryStats.increment(rows),
      merge: addRow,
      onError: (err, rows) =>
        logger.warn({ err, rows }, 'delivery counters not written (the charts miss them)'),
      flushMs,
    });
    this.seen = new SumBuffer({
      write: (seen) => store.eventTypes.recordSeen(seen),
      merge: (last, next) => void (last.at = next.at),
      onError: (err, rows) => logger.warn({ err, rows }, 'event types seen not written'),
      flushMs,
    });
  }

  add(o: CountedOutcome): void {
    const minute = Math.floor(o.at / 60_000) * 60_000;
    const bucket = o.latencyMs === null ? null : latencyBucket(o.latencyMs);
    for (const endpointId of [o.endpointId, ALL_ENDPOINTS]) {
      this.rows.add(`${o.projectId}|${endpointId}|${minute}`, {
        projectId: o.projectId,
        endpointId,
        minute,
        outcomes: { [o.status]: 1 },
        latency: bucket === null ? {} : { [bucket]: 1 },
      });
    }
    this.seen.add(`${o.projectId}|${o.endpointId}|${o.eventType}`, {
      projectId: o.projectId,
      endpointId: o.endpointId,
      eventType: o.eventType,
      at: new Date(o.at),
    });
  }

  /** Writes what has been added so far; never throws. */
  async flush(): Promise<void> {
    await Promise.all([this.rows.flush(), this.seen.flush()]);
  }
}

function addRow(sum: DeliveryStatsIncrement, next: DeliveryStatsIncrement): void {
  for (const [status, n] of Object.entries(next.outcomes))
    sum.outcomes[status] = (sum.outcomes[status] ?? 0) + n;
  for (const [bucket, n] of Object.entries(next.latency)) {
    const b = Number(bucket);
    sum.latency[b] = (sum.latency[b] ?? 0) + n;
  }
}
