import { KeyOwnership, type ConfigBarrier } from '@hookrail/bus';
import type { HookrailConfig } from '@hookrail/config';
import type { ServiceDefinition } from '@hookrail/runtime';
import { relayCredential, SecretBox, type ProjectId } from '@hookrail/domain';
import { ConfigCache } from '@hookrail/store';
import {
  createFirstSends,
  createSender,
  DeliveryOrdering,
  endpointStatusGate,
  type Gate,
} from '@hookrail/delivery';
import { fetchOAuth2Token, HttpClient, OAuth2TokenCache } from '@hookrail/outbound';
import { createEndpointHealth } from '@hookrail/endpoint-health';
import { FunctionPool } from '@hookrail/functions';
import { DeliveryStatsBuffer } from '@hookrail/operations';
import { createRouter } from '@hookrail/routing';
import { destinationEnvironment, DestinationPublishers } from '@hookrail/brokers';

/** Consumer groups are part of the contract between replicas: every dispatcher joins the same ones. */
const ROUTER_GROUP = 'dispatcher-router';
const SENDER_GROUP = 'dispatcher-sender';
/** First sends this process runs itself at once (createFirstSends); more are published. */
const MAX_LOCAL_FIRST_SENDS = 500;
/** How long a first send may wait for a local slot, and after how long without a slot released it does not. */
const LOCAL_SLOT_WAIT_MS = 5000;
const LOCAL_SLOT_STALL_MS = 1000;
/**
 * How often blocked ordering keys are checked: an operator's skip is carried out, and a release a
 * crash cut short is finished, within this (docs/ordered-delivery.md).
 */
const ORDERING_SWEEP_MS = 1000;

export interface DispatcherOptions {
  /** Extra trusted CA for HTTPS endpoints (tests with a local CA). */
  trustedCa?: string;
  /** Gates consulted before each send, after the endpoint-status gate. */
  extraGates?: Gate[];
  /** How often delivery counters are written (tests lengthen it to see the flush on stop). */
  statsFlushMs?: number;
}

export function definition(
  config: Readonly<HookrailConfig>,
  opts: DispatcherOptions = {},
): ServiceDefinition {
  return {
    config,
    async start({ bus, store, publisher, logger, metrics }) {
      const box = new SecretBox(config.security.encryptionKey);
      const http = new HttpClient({
        allowPrivateTargets: config.security.allowPrivateTargets,
        ca: opts.trustedCa,
      });
      const tokens = new OAuth2TokenCache((c) => fetchOAuth2Token(c, { http }));
      const functions = new FunctionPool({ metrics });
      // Versioned: entries hold until a configuration barrier on the events or deliveries topic
      // tells a project's new token, so a change whose API call returned is never missed and no
      // message waits on a database read for it (docs/decisions.md).
      const cache = new ConfigCache(store, { versioned: true });
      const onBarrier = (b: ConfigBarrier) => cache.applyToken(b.project_id, b.token);
      const configChanged = async (projectId: ProjectId) => {
        cache.invalidate(projectId);
        await bus.announceConfigChange(projectId);
      };
      const health = createEndpointHealth({
        smtp: config.smtp,
        http,
        store,
        publisher,
        logger,
        metrics,
        invalidate: configChanged,
      });
      // The rate limit comes last: a delivery allowed through it has taken its slot.
      const gates: Gate[] = [
        endpointStatusGate,
        health.circuitBreakerGate,
        ...(opts.extraGates ?? []),
        health.rateLimitGate,
      ];

      const stats = new DeliveryStatsBuffer(store, logger, opts.statsFlushMs);
      // Broker endpoints: one open publisher per endpoint; Hookrail's own topics are never a target.
      const publishers = new DestinationPublishers();
      const destinations = {
        publishers,
        env: {
          ...destinationEnvironment(config),
          ownKafka: { clusterId: await bus.clusterId(), topicPrefix: config.kafka.topicPrefix },
        },
      };
      // The deliveries partitions this process consumes: their endpoints' first sends skip the topic.
      const ownership = new KeyOwnership(() => bus.partitioner('deliveries'), {
        onReadError: (err, attempt) =>
          logger.warn({ err, attempt }, 'reading the deliveries partitions failed'),
      });
      const ordering = new DeliveryOrdering({
        store,
        publisher,
        config: cache,
        logger,
        metrics,
        deployment: config.kafka.topicPrefix,
        owns: (endpointId) => ownership.owns(endpointId),
      });
      const send = createSender({
        store,
        config: cache,
        http,
        tokens,
        box,
        publisher,
        stats,
        logger,
        metrics,
        gates,
        destinations,
        cliRelay: { url: config.urls.cliRelay, credential: relayCredential(config.security) },
        ordering,
        afterAttempt: (ctx, result) => health.afterAttempt(ctx, result),
        logAttempts: config.log.attempts,
      });
      // One sweep at a time; a failed one is logged and the next one tries again.
      let sweeping: Promise<void> | null = null;
      const sweepOrdering = () => {
        sweeping ??= ordering
          .sweep()
          .catch((err: unknown) => logger.warn({ err }, 'ordering sweep failed'))
          .finally(() => (sweeping = null));
        return sweeping;
      };
      const sweeper = setInterval(() => void sweepOrdering(), ORDERING_SWEEP_MS);
      sweeper.unref();
      const route = createRouter({
        store,
        config: cache,
        configChanged,
        functions,
        publisher,
        inOrderPublisher: await bus.connectInOrderPublisher(),
        deliver: createFirstSends({
          owns: (endpointId) => ownership.owns(endpointId),
          send,
          publisher,
          metrics,
          maxLocal: MAX_LOCAL_FIRST_SENDS,
          slotWaitMs: LOCAL_SLOT_WAIT_MS,
          slotStallMs: LOCAL_SLOT_STALL_MS,
        }),
        logger,
        metrics,
      });
      // An events message holds its slot until its records are written (about a second at max
      // rate, one record write after another), so the slots, not the CPU, bound the rate: 2,000
      // measured 1.1-1.2x the rate of 1,000 (docs/decisions.md). Memory is bounded by bytes too.
      const router = await bus.consume(ROUTER_GROUP, {
        topic: 'events',
        concurrency: 2000,
        handle: route,
        onBarrier,
      });
      const sender = await bus.consume(SENDER_GROUP, {
        topic: 'deliveries',
        concurrency: 1000,
        handle: (m) => send(m),
        onBarrier,
        onAssignment: (partitions) => void ownership.assign(partitions).then(sweepOrdering),
        onRebalancing: () => {
          ownership.release();
          ordering.reset();
        },
      });
      return {
        stop: async () => {
          clearInterval(sweeper);
          // Leaving the group hands the keys to another dispatcher, which may read them before
          // this process's last sends end: from here its ordering writes nothing (that one's sweep
          // releases what these sends unblock), as after a rebalance.
          ordering.reset();
          await Promise.all([router.stop(), sender.stop()]);
          await sweeping;
          // Counters of outcomes recorded since the last flush: written before the store closes.
          await stats.flush();
          http.close();
          await publishers.close();
          await functions.close();
        },
      };
    },
  };
}
