import type { HookrailConfig } from '@hookrail/config';
import { brokerEnvironment } from '@hookrail/brokers';
import { KeyOwnership, PublishGuard, type ConfigMessage } from '@hookrail/bus';
import { SecretBox } from '@hookrail/domain';
import { backoffMs } from '@hookrail/toolbox';
import { FunctionPool } from '@hookrail/functions';
import { EventValidator } from '@hookrail/ingest';
import { ConfigCache } from '@hookrail/store';
import type { ServiceDefinition } from '@hookrail/runtime';
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
  return {
    config,
    async start({ bus, store, publisher, logger, metrics }) {
      const functions = new FunctionPool({ metrics });
      const registry = new SourceRegistry({
        store,
        publisher,
        functions,
        cache: new ConfigCache(store),
        metrics,
        logger,
        box: new SecretBox(config.security.encryptionKey),
        env: brokerEnvironment(config, await bus.clusterId()),
        instanceId: config.instanceId,
        acceptGuard: PublishGuard.logging(opts.publishTimeoutMs ?? config.kafka.acceptTimeoutMs, logger),
        validator: new EventValidator(
          (projectId, name) => store.eventCatalog.findByName(projectId, name),
          metrics,
          'broker_source',
        ),
      });
      // A source runs on the replica that owns its project's config partition, so the replica that
      // runs a source is also the one that receives its changes.
      const ownership = new KeyOwnership(() => bus.partitioner('config'), {
        onReadError: (err, attempt) => logger.warn({ err, attempt }, 'reading the config partitions failed'),
      });
      const sourcesGauge = metrics.gauge(
        'hookrail_sources_running',
        'Broker sources running on this replica',
      );

      // Each join brings a fresh assignment: run every broker source it covers, stop the rest.
      let generation = 0;
      const assign = async (partitions: number[]) => {
        const gen = ++generation;
        await ownership.assign(partitions);
        if (gen !== generation) return;
        let all;
        // The database may be down at the join: keep trying until it answers or the group rebalances.
        for (let attempt = 0; ; attempt++) {
          try {
            all = await store.sources.listBrokerSources();
            break;
          } catch (err) {
            if (gen !== generation) return;
            logger.warn({ err, attempt }, 'listing broker sources failed, retrying');
            await new Promise((r) => setTimeout(r, backoffMs(attempt, { maxMs: 5000 })));
          }
        }
        if (gen !== generation) return;
        const owned = all.filter((s) => ownership.owns(s.project_id));
        const keep = new Set(owned.map((s) => s._id));
        await Promise.all([
          ...registry
            .ids()
            .filter((id) => !keep.has(id))
            .map((id) => registry.release(id)),
          ...owned.map((s) => registry.apply(s._id, s.project_id)),
        ]);
        sourcesGauge.set(registry.ids().length);
        logger.info({ partitions, sources: owned.length }, 'broker sources assigned');
      };
      const onChange = async (m: ConfigMessage) => {
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

      const consumer = await bus.consume('source-consumer', {
        topic: 'config',
        handle: onChange,
        // Changes of different sources apply side by side; the registry keeps each source's in order.
        concurrency: 16,
        sessionTimeoutMs: opts.assignmentSessionTimeoutMs ?? 10_000,
        onAssignment: (partitions) =>
          void assign(partitions).catch((err: unknown) =>
            logger.error({ err }, 'assigning broker sources failed'),
          ),
        onRebalancing: () => {
          generation++;
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
    },
  };
}
