import {
  ALL_ENDPOINTS,
  type CountedOutcome,
  type DeliveryStatsIncrement,
  type EventTypeSighting,
  type Store,
} from '@hookrail/store';
import type { Logger } from '@hookrail/telemetry';
import { latencyBucket } from './latency-buckets';

const FLUSH_MS = 2_000;
/** A flush is started early when this many minute rows are waiting. */
const MAX_ROWS = 5_000;

/**
 * Adds outcomes up in memory per (project, endpoint, minute) — and per (project, "*", minute) for
 * the project's totals — and writes them every couple of seconds as one bulk write of `$inc`
 * upserts, with the (endpoint, event type) pairs seen meanwhile as one bulk write of upserts.
 * Best-effort by design: it never delays or fails a delivery; a failed write is logged and its
 * counts dropped. A graceful stop flushes what is pending (the dispatcher's stop); counts not yet
 * written are lost only if the process dies (the charts are a picture, the deliveries stay the
 * record). One buffer per process, made by its wiring, so every sender shares one flush.
 */
export class DeliveryStatsBuffer {
  private rows = new Map<string, DeliveryStatsIncrement>();
  private seen = new Map<string, EventTypeSighting>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly store: Pick<Store, 'deliveryStats' | 'eventTypes'>,
    private readonly logger: Pick<Logger, 'warn'>,
    private readonly flushMs = FLUSH_MS,
  ) {}

  add(o: CountedOutcome): void {
    const minute = Math.floor(o.at / 60_000) * 60_000;
    const bucket = o.latencyMs === null ? null : latencyBucket(o.latencyMs);
    for (const endpointId of [o.endpointId, ALL_ENDPOINTS]) {
      const key = `${o.projectId}|${endpointId}|${minute}`;
      let row = this.rows.get(key);
      if (!row)
        this.rows.set(key, (row = { projectId: o.projectId, endpointId, minute, outcomes: {}, latency: {} }));
      row.outcomes[o.status] = (row.outcomes[o.status] ?? 0) + 1;
      if (bucket !== null) row.latency[bucket] = (row.latency[bucket] ?? 0) + 1;
    }
    const at = new Date(o.at);
    this.seen.set(`${o.projectId}|${o.endpointId}|${o.eventType}`, {
      projectId: o.projectId,
      endpointId: o.endpointId,
      eventType: o.eventType,
      at,
    });
    if (this.rows.size >= MAX_ROWS) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.flushMs);
      this.timer.unref(); // counters never keep a stopping process alive
    }
  }

  /** Writes what has been added so far; never throws. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.rows.size === 0) return;
    const rows = [...this.rows.values()];
    const seen = [...this.seen.values()];
    this.rows = new Map();
    this.seen = new Map();
    const write = (fn: () => Promise<void>, n: number, what: string) =>
      Promise.resolve()
        .then(fn)
        .catch((err: unknown) => this.logger.warn({ err, rows: n }, what));
    await Promise.all([
      write(
        () => this.store.deliveryStats.increment(rows),
        rows.length,
        'delivery counters not written (the charts miss them)',
      ),
      write(() => this.store.eventTypes.recordSeen(seen), seen.length, 'event types seen not written'),
    ]);
  }
}
