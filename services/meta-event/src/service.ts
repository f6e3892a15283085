import type { HookrailConfig } from '@hookrail/config';
import { HttpClient } from '@hookrail/outbound';
import { SecretBox } from '@hookrail/domain';
import type { ServiceDefinition } from '@hookrail/runtime';
import { handleMetaMessage } from '@hookrail/notify';
import { consumeAuditLog } from './audit-log';

/**
 * The meta-event service: consumes `meta`, records each meta event, sends it to the project's meta
 * event URL and schedules its retries through the retry-scheduler. It also stores the audit log
 * (`audit`): both are records of what happened in a project, off every request and delivery path.
 */
export function definition(config: Readonly<HookrailConfig>): ServiceDefinition {
  return {
    config,
    async start({ bus, store, publisher, logger, metrics }) {
      const http = new HttpClient({ allowPrivateTargets: config.security.allowPrivateTargets });
      const outcomes = metrics.counter(
        'hookrail_meta_events_total',
        'Meta event messages handled, by outcome',
        ['outcome'],
      );
      const deps = {
        store,
        publisher,
        http,
        box: new SecretBox(config.security.encryptionKey),
        logger,
        metrics,
        now: () => new Date(),
      };
      await bus.consume('meta-event', {
        topic: 'meta',
        handle: async (message, ctx) => {
          const outcome = await handleMetaMessage(deps, message, ctx);
          outcomes.inc({ outcome: outcome.kind === 'sent' ? outcome.status.toLowerCase() : outcome.kind });
          if (outcome.kind !== 'sent')
            logger.debug({ project_id: message.project_id, ...outcome }, `meta event ${outcome.kind}`);
        },
        // Meta events of one project are independent: no order to keep within a partition.
        concurrency: 16,
      });
      await consumeAuditLog(bus, store);
      return { stop: async () => http.close() };
    },
  };
}
