import type { AuditRecord } from '@hookrail/api-contract';
import { errorMessage } from '@hookrail/domain';
import type { Store } from '@hookrail/store';
import type { Logger } from '@hookrail/telemetry';

/** Records published again per produce request. */
const BATCH = 200;

interface RelayDeps {
  store: Pick<Store, 'auditOutbox'>;
  logger: Logger;
  publish: (records: AuditRecord[]) => Promise<void>;
  everyMs: number;
  onRepublished: (count: number) => void;
}

/**
 * Every `everyMs`, publishes the outbox's records oldest first, a batch at a time, and forgets
 * each batch once Kafka acknowledged it. Every gateway replica runs one: two replicas may publish
 * the same record, which meta-event stores once. A failed round leaves the records for the next.
 */
export function outboxRelay(deps: RelayDeps): { stop(): Promise<void> } {
  let round: Promise<void> | undefined;
  const drain = async () => {
    for (;;) {
      const records = await deps.store.auditOutbox.oldest(BATCH);
      if (records.length === 0) return;
      await deps.publish(records);
      await deps.store.auditOutbox.remove(records.map((r) => r.uid));
      deps.onRepublished(records.length);
      if (records.length < BATCH) return;
    }
  };
  const timer = setInterval(() => {
    round ??= drain()
      .catch((err: unknown) =>
        deps.logger.debug({ error: errorMessage(err) }, 'audit outbox: not yet published'),
      )
      .finally(() => (round = undefined));
  }, deps.everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await round;
    },
  };
}
