import { KeyOwnership, type ConfigBarrier } from '@hookrail/bus';
import type { HookrailConfig } from '@hookrail/config';
import type { ServiceContext, ServiceDefinition, Worker } from '@hookrail/runtime';
import { relayCredential, SecretBox, type ProjectId } from '@hookrail/domain';
import { ConfigCache } from '@hookrail/store';
import {
  AnsweredOutOfWindow,
  createFirstSends,
  createSender,
  DeliveryOrdering,
  EndpointLanes,
  endpointStatusGate,
  RetryStates,
  type EndpointLanesOptions,
  type Gate,
  type SenderDeps,
} from '@hookrail/delivery';
import { fetchOAuth2Token, HttpClient, OAuth2TokenCache } from '@hookrail/outbound';
import { createEndpointHealth } from '@hookrail/endpoint-health';
import { FunctionPool } from '@hookrail/functions';
import { DeliveryStatsBuffer } from '@hookrail/operations';
import { createRouter, EndpointEventCounts } from '@hookrail/routing';
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
/**
 * Per-endpoint concurrency (docs/isolation.md). 50 is an endpoint's connection pool
 * (libs/outbound): more would only queue in it. A delivery over its endpoint's cap waits in memory
 * for a slot, out of the sender's window (which the other endpoints need; its offset stays
 * uncommitted until it is sent), up to 10,000 waiting in all; beyond, it is parked through the
 * retry scheduler. An endpoint whose attempts take a second or more
 * is in the slow lane: 20 each (a 2 s endpoint still gets 10/s), 250 for all of them together,
 * and 250 more for endpoints not yet seen answering fast: of the sender's 1,000 and the router's
 * 500, endpoints that answer fast always keep 1,000. Besides, each new endpoint's first attempt
 * (its probe) passes the new lane's 250, up to 1,000 probes at once (a socket and a request each):
 * a new endpoint that answers does not wait behind up to a thousand new ones that hang.
 */
const LANES: EndpointLanesOptions = {
  perEndpoint: 50,
  maxDetached: 10_000,
  probeLane: 1000,
  slowPerEndpoint: 20,
  slowLane: 250,
  slowMs: 1000,
};
/** Deliveries messages handled at once by the sender's consumer. */
const SENDER_CONCURRENCY = 1000;
type Scale = NonNullable<DispatcherOptions['scale']>;
const SCALE: Scale = {
  senderConcurrency: SENDER_CONCURRENCY,
  maxLocalFirstSends: MAX_LOCAL_FIRST_SENDS,
  lanes: LANES,
};

export interface DispatcherOptions {
  /** Extra trusted CA for HTTPS endpoints (tests with a local CA). */
  trustedCa?: string;
  /** Gates consulted before each send, after the endpoint-status gate. */
  extraGates?: Gate[];
  /**
   * How often statistics (delivery counters, endpoints' event counts) are written (tests lengthen
   * it to see the flush on stop).
   */
  statsFlushMs?: number;
  /**
   * The windows and caps at a smaller scale (tests of isolation: the same proportions with
   * tens of attempts instead of hundreds); `lanes: false` sends without per-endpoint caps.
   */
  scale?: { senderConcurrency: number; maxLocalFirstSends: number; lanes: EndpointLanesOptions | false };
}

export function definition(
  config: Readonly<HookrailConfig>,
  opts: DispatcherOptions = {},
): ServiceDefinition {
  return { config, start: (ctx) => startDispatcher(config, opts, ctx) };
}

type Logger = ServiceContext['logger'];
type Health = ReturnType<typeof createEndpointHealth>;
type Send = ReturnType<typeof createSender>;

/**
 * The router consumes the events topic and turns each event into deliveries, sending the first
 * ones itself where it can; the sender consumes the deliveries topic. Both share the configuration
 * cache, the outbound clients and the ordering of the endpoints this process owns.
 */
async function startDispatcher(
  config: Readonly<HookrailConfig>,
  opts: DispatcherOptions,
  ctx: ServiceContext,
): Promise<Worker> {
  const { store, logger, metrics } = ctx;
  const outbound = outboundClients(config, opts);
  const functions = new FunctionPool({ metrics });
  const configs = versionedConfig(ctx);
  const health = endpointHealth(config, ctx, outbound.http, configs.changed);
  const gates = deliveryGates(health, opts.extraGates);
  const stats = new DeliveryStatsBuffer(store, logger, opts.statsFlushMs);
  const eventCounts = new EndpointEventCounts(store, logger, opts.statsFlushMs);
  // Broker endpoints: one open publisher per endpoint; Hookrail's own topics are never a target.
  const publishers = new DestinationPublishers();
  const destinations = { publishers, env: await destinationEnv(config, ctx) };
  const ownership = deliveriesOwnership(ctx);
  const ordering = orderingFor(config, ctx, configs.cache, ownership);
  // Where this process's retried deliveries stand, so they are sent again unread (until a rebalance).
  const retryStates = new RetryStates();
  const senderParts = {
    ...outbound,
    cache: configs.cache,
    stats,
    gates,
    destinations,
    ordering,
    health,
    retryStates,
  };
  const scale = opts.scale ?? SCALE;
  const send = senderFor(config, ctx, { ...senderParts, lanes: scale.lanes });
  const sweeper = startOrderingSweeper(ordering, logger);
  const route = await routerFor(ctx, { configs, functions, ownership, send, scale, eventCounts });
  const consumers = await consumeTopics(ctx, {
    route,
    send,
    configs,
    ownership,
    ordering,
    retryStates,
    sweeper,
    scale,
  });
  return {
    stop: async () => {
      sweeper.stop();
      // Leaving the group hands the keys to another dispatcher, which may read them before
      // this process's last sends end: from here its ordering writes nothing (that one's sweep
      // releases what these sends unblock), as after a rebalance.
      ordering.reset();
      await Promise.all([consumers.router.stop(), consumers.sender.stop()]);
      await sweeper.running();
      // Statistics added up since the last flush: written before the store closes.
      await Promise.all([stats.flush(), eventCounts.flush()]);
      outbound.http.close();
      await publishers.close();
      await functions.close();
    },
  };
}

function outboundClients(config: Readonly<HookrailConfig>, opts: DispatcherOptions) {
  const box = new SecretBox(config.security.encryptionKey);
  const http = new HttpClient({
    allowPrivateTargets: config.security.allowPrivateTargets,
    ca: opts.trustedCa,
  });
  const tokens = new OAuth2TokenCache((c) => fetchOAuth2Token(c, { http }));
  return { box, http, tokens };
}

interface VersionedConfig {
  cache: ConfigCache;
  onBarrier: (b: ConfigBarrier) => void;
  changed: (projectId: ProjectId) => Promise<void>;
}

function versionedConfig({ bus, store }: ServiceContext): VersionedConfig {
  // Versioned: entries hold until a configuration barrier on the events or deliveries topic
  // tells a project's new token, so a change whose API call returned is never missed and no
  // message waits on a database read for it (docs/decisions.md).
  const cache = new ConfigCache(store, { versioned: true });
  return {
    cache,
    onBarrier: (b) => cache.applyToken(b.project_id, b.token),
    changed: async (projectId) => {
      cache.invalidate(projectId);
      await bus.announceConfigChange(projectId);
    },
  };
}

function endpointHealth(
  config: Readonly<HookrailConfig>,
  { store, publisher, logger, metrics }: ServiceContext,
  http: HttpClient,
  invalidate: VersionedConfig['changed'],
): Health {
  return createEndpointHealth({ smtp: config.smtp, http, store, publisher, logger, metrics, invalidate });
}

function deliveryGates(health: Health, extraGates: Gate[] = []): Gate[] {
  // The rate limit comes last: a delivery allowed through it has taken its slot.
  return [endpointStatusGate, health.circuitBreakerGate, ...extraGates, health.rateLimitGate];
}

async function destinationEnv(config: Readonly<HookrailConfig>, { bus }: ServiceContext) {
  return {
    ...destinationEnvironment(config),
    ownKafka: { clusterId: await bus.clusterId(), topicPrefix: config.kafka.topicPrefix },
  };
}

function deliveriesOwnership({ bus, logger }: ServiceContext): KeyOwnership {
  // The deliveries partitions this process consumes: their endpoints' first sends skip the topic.
  return new KeyOwnership(() => bus.partitioner('deliveries'), {
    onReadError: (err, attempt) => logger.warn({ err, attempt }, 'reading the deliveries partitions failed'),
  });
}

function orderingFor(
  config: Readonly<HookrailConfig>,
  { store, publisher, logger, metrics }: ServiceContext,
  cache: ConfigCache,
  ownership: KeyOwnership,
): DeliveryOrdering {
  return new DeliveryOrdering({
    store,
    publisher,
    config: cache,
    logger,
    metrics,
    deployment: config.kafka.topicPrefix,
    owns: (endpointId) => ownership.owns(endpointId),
  });
}

function senderFor(
  config: Readonly<HookrailConfig>,
  { store, publisher, logger, metrics }: ServiceContext,
  deps: ReturnType<typeof outboundClients> & {
    cache: ConfigCache;
    stats: DeliveryStatsBuffer;
    gates: Gate[];
    destinations: SenderDeps['destinations'];
    ordering: DeliveryOrdering;
    retryStates: RetryStates;
    health: Health;
    lanes: Scale['lanes'];
  },
): Send {
  const { health } = deps;
  return createSender({
    store,
    config: deps.cache,
    http: deps.http,
    tokens: deps.tokens,
    box: deps.box,
    publisher,
    stats: deps.stats,
    logger,
    metrics,
    gates: deps.gates,
    destinations: deps.destinations,
    cliRelay: { url: config.urls.cliRelay, credential: relayCredential(config.security) },
    ordering: deps.ordering,
    retryStates: deps.retryStates,
    afterAttempt: (ctx, result) => health.afterAttempt(ctx, result),
    logAttempts: config.log.attempts,
    lanes: deps.lanes ? endpointLanes(deps.lanes, metrics) : undefined,
  });
}

/** The lanes, with a gauge of the attempts running in each (read at each scrape). */
function endpointLanes(options: EndpointLanesOptions, metrics: ServiceContext['metrics']): EndpointLanes {
  const lanes = new EndpointLanes(options);
  metrics.gauge(
    'hookrail_endpoint_lane_attempts',
    'Delivery attempts waiting for an answer in this dispatcher, by lane (docs/isolation.md)',
    ['lane'],
    (gauge) => {
      const { running, ...shared } = lanes.counts();
      gauge.set({ lane: 'fast' }, running - shared.probe - shared.new - shared.slow);
      gauge.set({ lane: 'probe' }, shared.probe);
      gauge.set({ lane: 'new' }, shared.new);
      gauge.set({ lane: 'slow' }, shared.slow);
    },
  );
  metrics.gauge(
    'hookrail_endpoint_lane_waiting',
    "Deliveries waiting in memory for their endpoint's slot, out of the sender's window (docs/isolation.md)",
    [],
    (gauge) => gauge.set(lanes.counts().detached),
  );
  return lanes;
}

/**
 * Sweeps the blocked ordering keys every ORDERING_SWEEP_MS. One sweep at a time; a failed one is
 * logged and the next one tries again.
 */
function startOrderingSweeper(ordering: DeliveryOrdering, logger: Logger) {
  let sweeping: Promise<void> | null = null;
  const sweep = () => {
    sweeping ??= ordering
      .sweep()
      .catch((err: unknown) => logger.warn({ err }, 'ordering sweep failed'))
      .finally(() => (sweeping = null));
    return sweeping;
  };
  const timer = setInterval(() => void sweep(), ORDERING_SWEEP_MS);
  timer.unref();
  return {
    sweep,
    /** Stops the timer; a sweep under way goes on (see `running`). */
    stop: () => clearInterval(timer),
    /** The sweep under way, if any. */
    running: () => sweeping,
  };
}
type OrderingSweeper = ReturnType<typeof startOrderingSweeper>;

async function routerFor(
  { bus, store, publisher, logger, metrics }: ServiceContext,
  deps: {
    configs: VersionedConfig;
    functions: FunctionPool;
    ownership: KeyOwnership;
    send: Send;
    scale: Scale;
    eventCounts: EndpointEventCounts;
  },
) {
  const { ownership } = deps;
  return createRouter({
    store,
    config: deps.configs.cache,
    configChanged: deps.configs.changed,
    functions: deps.functions,
    publisher,
    eventCounts: deps.eventCounts,
    inOrderPublisher: await bus.connectInOrderPublisher(),
    deliver: createFirstSends({
      owns: (endpointId) => ownership.owns(endpointId),
      send: deps.send,
      publisher,
      metrics,
      maxLocal: deps.scale.maxLocalFirstSends,
      slotWaitMs: LOCAL_SLOT_WAIT_MS,
      slotStallMs: LOCAL_SLOT_STALL_MS,
    }),
    logger,
    metrics,
  });
}

async function consumeTopics(
  { bus, metrics }: ServiceContext,
  deps: {
    route: Awaited<ReturnType<typeof routerFor>>;
    send: Send;
    configs: VersionedConfig;
    ownership: KeyOwnership;
    ordering: DeliveryOrdering;
    retryStates: RetryStates;
    sweeper: OrderingSweeper;
    scale: Scale;
  },
) {
  const { send, ownership, ordering, retryStates, sweeper } = deps;
  const { onBarrier } = deps.configs;
  // An events message holds its slot until its records are written (about a second at max
  // rate, one record write after another), so the slots, not the CPU, bound the rate: 2,000
  // measured 1.1-1.2x the rate of 1,000 (docs/decisions.md). Memory is bounded by bytes too.
  const router = await bus.consume(ROUTER_GROUP, {
    topic: 'events',
    concurrency: 2000,
    handle: deps.route,
    onBarrier,
  });
  // A message answered leaves the sender's window while its record waits: as many again at most.
  const answered = new AnsweredOutOfWindow(deps.scale.senderConcurrency);
  metrics.gauge(
    'hookrail_sender_answered_out_of_window',
    "Deliveries messages answered and waiting for their record, out of the sender's window",
    [],
    (gauge) => gauge.set(answered.size),
  );
  const sender = await bus.consume(SENDER_GROUP, {
    topic: 'deliveries',
    concurrency: deps.scale.senderConcurrency,
    handle: (m, ctx) =>
      answered.run(ctx.leaveWindow, (attemptEnded) => send(m, attemptEnded, ctx.leaveWindow)),
    onBarrier,
    onAssignment: (partitions) => void ownership.assign(partitions).then(sweeper.sweep),
    onRebalancing: () => {
      ownership.release();
      ordering.reset();
      retryStates.forget();
    },
  });
  return { router, sender };
}
