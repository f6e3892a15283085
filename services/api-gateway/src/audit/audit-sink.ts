import type { AuditRecord } from '@hookrail/api-contract';
import { errorMessage } from '@hookrail/domain';
import type { Publisher } from '@hookrail/bus';
import type { Logger, Metrics } from '@hookrail/telemetry';

/** Where every audit record goes (calls, sign-ins, role changes); never makes its caller wait. */
export type AuditSink = (record: AuditRecord) => void;

/**
 * Publishes each record to the `audit` topic (meta-event stores it) without anyone waiting for it.
 * A record that cannot be published is logged and counted, never the call's failure.
 */
export function auditSink(deps: { publisher: Publisher; logger: Logger; metrics: Metrics }): AuditSink {
  const published = deps.metrics.counter(
    'hookrail_audit_records_total',
    'Audit records published, by outcome',
    ['outcome'],
  );
  return (record) => {
    deps.publisher.publish('audit', [record]).then(
      () => published.inc({ outcome: 'published' }),
      (err: unknown) => {
        published.inc({ outcome: 'failed' });
        deps.logger.warn(
          { error: errorMessage(err), operation: record.operation },
          'audit record not published',
        );
      },
    );
  };
}
