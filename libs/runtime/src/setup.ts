import type { HookrailConfig } from '@hookrail/config';
import { Bus, TOPIC_KEYS } from '@hookrail/bus';
import { Store } from '@hookrail/store';
import { createLogger, Metrics, type Logger } from '@hookrail/telemetry';
import { errorMessage } from '@hookrail/domain';

/**
 * One-shot set-up of the shared infrastructure: every catalog topic and every collection with its
 * indexes. Idempotent, so a Helm pre-install/pre-upgrade Job runs it on every release and an
 * install is complete before its first pod starts. Each service still ensures the same at start-up
 * (`startService`, idempotent too): a stack without the Job (the local stack, the tests, compose)
 * works, and a service never waits on the Job.
 */
export async function runSetup(
  config: Readonly<HookrailConfig>,
  logger: Logger,
): Promise<{ topics: string[] }> {
  const store = await Store.connect(config.mongodb.url, `${config.service}-setup`);
  const bus = new Bus(config.kafka, {
    logger,
    metrics: new Metrics(config.service, { defaultMetrics: false }),
  });
  try {
    await store.ensureIndexes();
    await bus.ensureTopics();
    return { topics: TOPIC_KEYS.map((k) => bus.topic(k)) };
  } finally {
    await bus.close();
    await store.close();
  }
}

/** Runs the set-up as the process: exit 0 when done, 1 with the reason logged when not. */
export function runSetupMain(config: Readonly<HookrailConfig>): void {
  const logger = createLogger({ service: `${config.service}-setup`, level: config.log.level });
  runSetup(config, logger).then(
    (done) => {
      logger.info(done, 'set-up complete: topics and indexes are in place');
      process.exit(0);
    },
    (err) => {
      logger.error({ err: errorMessage(err) }, 'set-up failed');
      process.exit(1);
    },
  );
}
