import type { HookrailConfig } from '@hookrail/config';
import { brokerEnvironment } from '@hookrail/brokers';
import { KeyOwnership, PublishGuard, type ConfigMessage } from '@hookrail/bus';
import { SecretBox } from '@hookrail/domain';
import { backoffMs } from '@hookrail/toolbox';
import { FunctionPool } from '@hookrail/functions';
import { EventValidator } from '@hookrail/ingest';
import { ConfigCache } from '@hookrail/store';
import type { ServiceContext, ServiceDefinition, Worker } from '@hookrail/runtime';
import { SourceRegistry } from './source-registry';

export interface SourceConsumerOptions {
  /** How long a message waits for Kafka's acknowledgement before it is left for redelivery. */
  publishTimeoutMs?: number;
  /** How soon the group notices a dead replica and moves its sources (default 10 s). */
  assignmentSessionTimeoutMs?: number;
}

/**
 * Runs the broker sources this replica is assigned. Assignment is Kafka group membership on the
 * config topic (docs/brokers.md): a replica owns the sources of the projects keyed to its
 * partitions, reloads them all after each rebalance, and applies each config change it receives.
 */
export function definition(
  config: Readonly<HookrailConfig>,
  opts: SourceConsumerOptions = {},
): ServiceDefinition {
  return { config, start: (ctx) => startSourceConsumer(config, opts, ctx) };
}

type Gauge = ReturnType<ServiceContext['metrics']['gauge']>;

async function startSourceConsumer(
  config: Readonly<HookrailConfig>,
  opts: SourceConsumerOptions,
  ctx: ServiceContext,
): Promise<Worker> {
  const { bus, logger, metrics } = ctx;
  const functions = new FunctionPool({ metrics });
  const registry = await sourceRegistry(config, opts, ctx, functions);
  // A source runs on the replica that owns its project's config partition, so the replica that
  // runs a source is also the one that receives its changes.
  const ownership = new KeyOwnership(() => bus.partitioner('config'), {
    onReadError: (err, attempt) => logger.warn({ err, attempt }, 'reading the config partitions failed'),
  });
  const sourcesGauge = metrics.gauge('hookrail_sources_running', 'Broker sources running on this replica');
  const assignment = sourceAssignment(ctx, { registry, ownership, sourcesGauge });

  const consumer = await bus.consume('source-consumer', {
    topic: 'config',
    handle: configChangeHandler(ctx, registry, sourcesGauge),
    // Changes of different sources apply side by side; the registry keeps each source's in order.
    concurrency: 16,
    sessionTimeoutMs: opts.assignmentSessionTimeoutMs ?? 10_000,
    onAssignment: (partitions) =>
      void assignment
        .assign(partitions)
        .catch((err: unknown) => logger.error({ err }, 'assigning broker sources failed')),
    onRebalancing: () => {
      assignment.revoke();
      ownership.release();
      void registry.releaseAll();
    },
  });
  return {
    async stop() {
      await consumer.stop();
      await registry.releaseAll();
      await functions.close();
    },
  };
}

async function sourceRegistry(
  config: Readonly<HookrailConfig>,
  opts: SourceConsumerOptions,
  { bus, store, publisher, logger, metrics }: ServiceContext,
  functions: FunctionPool,
): Promise<SourceRegistry> {
  return new SourceRegistry({
    store,
    publisher,
    functions,
    cache: new ConfigCache(store),
    metrics,
    logger,
    box: new SecretBox(config.security.encryptionKey),
    env: brokerEnvironment(config, await bus.clusterId()),
    namedConnections: config.changeStreams.connections,
    instanceId: config.instanceId,
    acceptGuard: PublishGuard.logging(opts.publishTimeoutMs ?? config.kafka.acceptTimeoutMs, logger),
    validator: new EventValidator(
      (projectId, name) => store.eventCatalog.findByName(projectId, name),
      metrics,
      'broker_source',
    ),
  });
}

/**
 * Each join brings a fresh assignment: run every broker source it covers, stop the rest. A
 * rebalance (`revoke`) makes the assignment under way give up.
 */
function sourceAssignment(
  { store, logger }: ServiceContext,
  deps: { registry: SourceRegistry; ownership: KeyOwnership; sourcesGauge: Gauge },
) {
  const { registry, ownership } = deps;
  let generation = 0;
  const assign = async (partitions: number[]) => {
    const gen = ++generation;
    await ownership.assign(partitions);
    if (gen !== generation) return;
    const all = await listBrokerSourcesRetrying(store, logger, () => gen !== generation);
    if (all === undefined || gen !== generation) return;
    const owned = all.filter((s) => ownership.owns(s.project_id));
    const keep = new Set(owned.map((s) => s._id));
    await Promise.all([
      ...registry
        .ids()
        .filter((id) => !keep.has(id))
        .map((id) => registry.release(id)),
      ...owned.map((s) => registry.apply(s._id, s.project_id)),
    ]);
    deps.sourcesGauge.set(registry.ids().length);
    logger.info({ partitions, sources: owned.length }, 'broker sources assigned');
  };
  return { assign, revoke: () => void generation++ };
}

/** Undefined when `superseded` says the assignment it was for has given way to another. */
async function listBrokerSourcesRetrying(
  store: ServiceContext['store'],
  logger: ServiceContext['logger'],
  superseded: () => boolean,
) {
  // The database may be down at the join: keep trying until it answers or the group rebalances.
  for (let attempt = 0; ; attempt++) {
    try {
      return await store.sources.listBrokerSources();
    } catch (err) {
      if (superseded()) return undefined;
      logger.warn({ err, attempt }, 'listing broker sources failed, retrying');
      await new Promise((r) => setTimeout(r, backoffMs(attempt, { maxMs: 5000 })));
    }
  }
}

function configChangeHandler(
  { store }: ServiceContext,
  registry: SourceRegistry,
  sourcesGauge: Gauge,
): (m: ConfigMessage) => Promise<void> {
  return async (m) => {
    if (m.resource === 'source') await registry.apply(m.id, m.project_id);
    else if (m.resource === 'project')
      // The project's type, limit or existence changed: every source of it is re-read.
      await Promise.all(
        (await store.sources.listBrokerSources())
          .filter((s) => s.project_id === m.project_id)
          .map((s) => registry.apply(s._id, s.project_id)),
      );
    sourcesGauge.set(registry.ids().length);
  };
}
