import type { HookrailConfig } from '@hookrail/config';
import { Bus, TOPIC_KEYS } from '@hookrail/bus';
import { formatMigrationStatus, Store, type AppliedMigration } from '@hookrail/store';
import { createLogger, Metrics, type Logger } from '@hookrail/telemetry';
import { errorMessage } from '@hookrail/domain';

/** Exit codes of the set-up and of `migrate status|up`. */
const EXIT = { done: 0, failed: 1, usage: 2, pending: 3 } as const;
/** No bound on a silent connection: a migration's index build answers only once it is done. */
const MIGRATIONS_CONNECTION = { socketTimeoutMs: 0 };

const USAGE = `usage: node dist/setup.js                 topics, then the pending migrations (the Helm Job)
       node dist/setup.js migrate status  what is applied and pending (exit 0 up to date, 3 pending)
       node dist/setup.js migrate up      apply the pending migrations (exit 0 done, 1 failed)
       node dist/setup.js migrate after-rollout  once every pod runs this release (the post-upgrade Job)`;

/**
 * One-shot set-up of the shared infrastructure: every catalog topic, then the database's pending
 * migrations (collections and indexes among them). A Helm pre-install/pre-upgrade Job runs it on
 * every release, so an install or upgrade is complete before its first new pod starts; a second
 * run applies nothing. A service ensures the topics at start-up but waits until no migration is
 * pending (`startService`): the database's schema is the migrations', never a service's.
 */
async function runSetup(
  config: Readonly<HookrailConfig>,
  logger: Logger,
): Promise<{ topics: string[]; applied: string[] }> {
  const bus = new Bus(config.kafka, {
    logger,
    metrics: new Metrics(config.service, { defaultMetrics: false }),
  });
  try {
    await bus.ensureTopics();
  } finally {
    await bus.close();
  }
  const store = await Store.connect(config.mongodb.url, `${config.service}-setup`, MIGRATIONS_CONNECTION);
  try {
    const { applied } = await store
      .migrations({
        onWait: (holder) => logger.info(holder, 'waiting for another set-up holding the migration lock'),
        onApplied: (m) => logger.info(migrationFields(m), 'migration applied'),
      })
      .up();
    return { topics: TOPIC_KEYS.map((k) => bus.topic(k)), applied: applied.map((m) => m.key) };
  } finally {
    await store.close();
  }
}

function migrationFields(m: AppliedMigration) {
  return { migration: m.key, description: m.description, duration_ms: m.durationMs };
}

type MigrateCommand = 'status' | 'up' | 'after-rollout';
const MIGRATE_COMMANDS: readonly string[] = ['status', 'up', 'after-rollout'] satisfies MigrateCommand[];

/** `migrate status|up|after-rollout`: the table on stdout, and the exit code says what it found. */
async function runMigrateCommand(config: Readonly<HookrailConfig>, command: MigrateCommand): Promise<number> {
  const store = await Store.connect(config.mongodb.url, `${config.service}-migrate`, MIGRATIONS_CONNECTION);
  try {
    const migrations = store.migrations({
      onWait: (holder) => console.log(`waiting for ${holder.owner}, which holds the migration lock`),
      onApplied: (m) => console.log(`applied ${m.key} (${m.durationMs} ms): ${m.description}`),
    });
    if (command === 'after-rollout') {
      const done = await migrations.afterRollout();
      console.log(done.length ? `after the rollout: ${done.join(', ')}` : 'nothing to do after the rollout');
    }
    const status = command === 'up' ? (await migrations.up()).status : await migrations.status();
    console.log(formatMigrationStatus(status));
    return status.some((row) => row.state === 'pending') ? EXIT.pending : EXIT.done;
  } finally {
    await store.close();
  }
}

function exitWith(code: number): never {
  process.exit(code);
}

/**
 * Runs the set-up as the process (no arguments), or `migrate status|up`: exit 0 when done, 1 with
 * the reason when it failed, 2 on unknown arguments, 3 from `status` when migrations are pending.
 */
export function runSetupMain(config: Readonly<HookrailConfig>, args = process.argv.slice(2)): void {
  if (args[0] === 'migrate' && MIGRATE_COMMANDS.includes(args[1]) && args.length === 2) {
    runMigrateCommand(config, args[1] as MigrateCommand).then(exitWith, (err) => {
      console.error(`migrate ${args[1]} failed: ${errorMessage(err)}`);
      exitWith(EXIT.failed);
    });
    return;
  }
  if (args.length > 0) {
    console.error(USAGE);
    exitWith(EXIT.usage);
  }
  const logger = createLogger({ service: `${config.service}-setup`, level: config.log.level });
  runSetup(config, logger).then(
    (done) => {
      logger.info(done, 'set-up complete: topics in place, migrations applied');
      exitWith(EXIT.done);
    },
    (err) => {
      logger.error({ err: errorMessage(err) }, 'set-up failed');
      exitWith(EXIT.failed);
    },
  );
}
