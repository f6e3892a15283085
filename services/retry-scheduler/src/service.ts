import type { HookrailConfig } from '@hookrail/config';
import { startHousekeeping } from '@hookrail/operations';
import { Scheduler, type SchedulerOptions } from '@hookrail/retry';
import type { ServiceDefinition } from '@hookrail/runtime';
import { traceContextOf } from '@hookrail/telemetry';
import { fireDue } from './fire-due';

/**
 * The retry-scheduler: consumes `retries`, keeps each entry durably (in MongoDB, or for one due
 * soon in its uncommitted message) and fires it to `deliveries` (or `meta`) when due. The only
 * place in Hookrail that waits.
 */
export function definition(
  config: Readonly<HookrailConfig>,
  opts: Partial<Omit<SchedulerOptions, 'shardPrefix'>> = {},
): ServiceDefinition {
  return {
    config,
    async start({ bus, store, publisher, logger, metrics }) {
      const scheduler = new Scheduler(
        { store, fire: fireDue(publisher), logger, metrics },
        { ...opts, shardPrefix: config.kafka.topicPrefix },
      );
      scheduler.start();
      // The background service also runs the clean-up jobs (every replica: they are idempotent).
      const housekeeping = startHousekeeping({ store, logger }, config.housekeeping.intervalMs);
      await bus.consume('retry-scheduler', {
        topic: 'retries',
        handle: (message, ctx) =>
          scheduler.accept(message, ctx.partition, traceContextOf(ctx.headers), ctx.leaveWindow),
        // Entries are written in bulk: many messages per partition at once, one insert per tick.
        // Entries due soon wait in memory with their messages out of this window (Scheduler).
        concurrency: 500,
        partitionsConcurrently: config.kafka.partitions,
        onAssignment: (partitions) => scheduler.onAssignment(partitions),
        onRebalancing: () => scheduler.onRebalancing(),
      });
      return {
        stop: async () => {
          await housekeeping.stop();
          await scheduler.stop();
        },
      };
    },
  };
}
