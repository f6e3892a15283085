import type { AuditRecord } from '@hookrail/api-contract';
import { PublishGuard, type Publisher } from '@hookrail/bus';
import { errorMessage } from '@hookrail/domain';
import type { Store } from '@hookrail/store';
import type { Logger, Metrics } from '@hookrail/telemetry';
import { outboxRelay } from './outbox-relay';

/**
 * Where every audit record goes (calls, sign-ins, role changes). `record` never makes its caller
 * wait; `stop` ends the outbox's relay (the gateway's stop).
 */
export interface AuditSink {
  record(record: AuditRecord): void;
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
}

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
  return {
    record(record) {
      publish([record]).then(
        () => counted.inc({ outcome: 'published' }),
        (err: unknown) => keep(record, err),
      );
    },
    stop: relay.stop,
  };
}
