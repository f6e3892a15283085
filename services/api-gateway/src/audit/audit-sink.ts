import type { AuditRecord } from '@hookrail/api-contract';
import pTimeout from 'p-timeout';
import { PublishGuard, type Publisher } from '@hookrail/bus';
import { errorMessage } from '@hookrail/domain';
import type { Store } from '@hookrail/store';
import type { Logger, Metrics } from '@hookrail/telemetry';
import { outboxRelay } from './outbox-relay';
import { PublishAggregates, type PublishCall } from './publish-aggregates';

/**
 * Where every audit record goes (calls, sign-ins, role changes). `record` and `aggregate` never
 * make their caller wait; `stop` (the gateway's stop) records the open aggregates, waits for the
 * records on their way to Kafka or the outbox, and ends the outbox's relay.
 */
export interface AuditSink {
  record(record: AuditRecord): void;
  /** A call that sent events: counted into its window's aggregate, recorded when the window ends. */
  aggregate(call: PublishCall): void;
  stop(): Promise<void>;
}

export interface AuditSinkDeps {
  publisher: Publisher;
  store: Pick<Store, 'auditOutbox'>;
  logger: Logger;
  metrics: Metrics;
  /** How long a publish may wait for Kafka before its record goes to the outbox. */
  publishTimeoutMs?: number;
  /** How often the outbox is read and published again. */
  relayEveryMs?: number;
  /** The window sent events' calls are aggregated over (HOOKRAIL_AUDIT_PUBLISH_WINDOW_MS). */
  publishWindowMs?: number;
  /** Open aggregates at most; past it the oldest is recorded early. */
  maxAggregates?: number;
  /** How long a stop waits for the records on their way (STOP_WAIT_MS). */
  stopWaitMs?: number;
}

/** Enough for 10,000 distinct callers a window. */
const MAX_AGGREGATES = 10_000;
/**
 * How long a stop waits for the records on their way: Kafka's 2 s, then the outbox's write. Within
 * the process's 10 s shutdown, after HTTP's 5 s drain: a MongoDB down too must not hold it open.
 */
const STOP_WAIT_MS = 3_000;

/**
 * Publishes each record to the `audit` topic (meta-event stores it) without anyone waiting. While
 * Kafka cannot take it (not acknowledged within `publishTimeoutMs`, or known to be down: the guard
 * then fails at once instead of piling records up in the producer), the record is kept in the
 * `audit_outbox` collection and published again by the relay once Kafka is back; meta-event stores
 * by the record's id, so one published twice is one record. Lost only when MongoDB refuses it too:
 * logged and counted (`failed`), never the call's failure (docs/access.md, "When Kafka is down").
 */
export function auditSink(deps: AuditSinkDeps): AuditSink {
  const counted = deps.metrics.counter(
    'hookrail_audit_records_total',
    'Audit records by outcome: published, kept (in the outbox while Kafka cannot take them), republished (from the outbox), failed (lost)',
    ['outcome'],
  );
  const guard = new PublishGuard({ timeoutMs: deps.publishTimeoutMs ?? 2_000, probeIntervalMs: 1_000 });
  const publish = (records: AuditRecord[]) => guard.run(() => deps.publisher.publish('audit', records));
  const keep = async (record: AuditRecord, cause: unknown) => {
    try {
      await deps.store.auditOutbox.add([record]);
      counted.inc({ outcome: 'kept' });
    } catch (err) {
      counted.inc({ outcome: 'failed' });
      const error = `${errorMessage(cause)}; outbox: ${errorMessage(err)}`;
      deps.logger.warn({ error, operation: record.operation }, 'audit record lost');
    }
  };
  const relay = outboxRelay({
    ...deps,
    publish,
    everyMs: deps.relayEveryMs ?? 2_000,
    onRepublished: (n) => counted.inc({ outcome: 'republished' }, n),
  });
  // what stop waits for: records not yet acknowledged by Kafka nor kept in the outbox
  const onTheirWay = new Set<Promise<void>>();
  const record = (r: AuditRecord) => {
    const sent = publish([r]).then(
      () => void counted.inc({ outcome: 'published' }),
      (err: unknown) => keep(r, err),
    );
    onTheirWay.add(sent);
    void sent.finally(() => onTheirWay.delete(sent));
  };
  const aggregator = publishAggregator(deps, record);
  return {
    record,
    aggregate: aggregator.add,
    async stop() {
      aggregator.stop();
      const waited = await pTimeout(
        Promise.all(onTheirWay).then(() => true),
        { milliseconds: deps.stopWaitMs ?? STOP_WAIT_MS, message: false },
      );
      if (!waited) deps.logger.warn({ records: onTheirWay.size }, 'audit records still unsent at stop');
      await relay.stop();
    },
  };
}

/**
 * Sent events' calls counted per window (publish-aggregates.ts), and a timer that records the
 * aggregates whose window ended: every quarter window, at most every 5 s. `stop` records the open
 * ones at once; a call counted after it is recorded on its own.
 */
function publishAggregator(
  deps: Pick<AuditSinkDeps, 'publishWindowMs' | 'maxAggregates'>,
  record: (r: AuditRecord) => void,
): { add(call: PublishCall): void; stop(): void } {
  const windowMs = deps.publishWindowMs ?? 60_000;
  const aggregates = new PublishAggregates({ windowMs, maxAggregates: deps.maxAggregates ?? MAX_AGGREGATES });
  let stopped = false;
  const timer = setInterval(
    () => aggregates.closed(Date.now()).forEach(record),
    Math.min(5_000, Math.max(50, windowMs / 4)),
  );
  timer.unref();
  return {
    add(call) {
      aggregates.add(call).forEach(record);
      if (stopped) aggregates.all(Date.now()).forEach(record);
    },
    stop() {
      stopped = true;
      clearInterval(timer);
      aggregates.all(Date.now()).forEach(record);
    },
  };
}
