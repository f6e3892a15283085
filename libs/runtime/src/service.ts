import express, { type Express } from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { HookrailConfig } from '@hookrail/config';
import { Bus, type Publisher } from '@hookrail/bus';
import { Store } from '@hookrail/store';
import { createLogger, Metrics, startTracing, stopTracing, type Logger } from '@hookrail/telemetry';
import { errorMessage, fail } from '@hookrail/domain';
import { connectionCloser } from './close-connections';
import { DependencyWatch } from './dependency-watch';
import { healthProbes, type ReadinessCheck } from './health';
import { httpSpans } from './http-spans';

export interface ServiceContext {
  config: Readonly<HookrailConfig>;
  logger: Logger;
  metrics: Metrics;
  bus: Bus;
  store: Store;
  publisher: Publisher;
  /** The service's HTTP app; health routes are already mounted. */
  app: Express;
}

export interface Worker {
  /**
   * The service starts to stop: end the HTTP exchanges that would otherwise hold the drain open
   * until it is cut (streams). Ordinary requests on their way are still answered.
   */
  endStreams?(): void;
  /** Stop intake, finish or abandon (uncommitted) in-flight work. */
  stop(): Promise<void>;
}

export interface RunningService {
  readonly port: number;
  readonly url: string;
  isReady(): boolean;
  /** Resolves when dependencies are connected and the worker started. */
  started: Promise<void>;
  stop(): Promise<void>;
}

export interface ServiceDefinition {
  config: Readonly<HookrailConfig>;
  /** Starts the service's work once Kafka and MongoDB are reachable. */
  start(ctx: ServiceContext): Promise<Worker | void>;
  logger?: Logger;
}

const READINESS_CACHE_MS = 1000;
/** How long `stop()` lets in-flight HTTP exchanges finish; well inside runMain's hard exit. */
export const HTTP_DRAIN_MS = 5_000;
/** What stop() logs when it cuts the connections still busy at the end of the grace. */
export const HTTP_DRAIN_CUT_LOG = 'cutting HTTP connections still busy after the grace';

/**
 * The lifecycle every service shares: HTTP first (so /healthz answers and /readyz says "not ready"
 * while dependencies are down), then MongoDB and Kafka with retries, indexes and topics, then the
 * service's own work. `stop()` drains HTTP first (requests on their way still need the worker and
 * Kafka), then stops the work, Kafka and MongoDB.
 */
export async function startService(def: ServiceDefinition): Promise<RunningService> {
  const { config } = def;
  const logger =
    def.logger ??
    createLogger({ service: config.service, level: config.log.level, instanceId: config.instanceId });
  startTracing({
    service: config.service,
    exporter: config.telemetry.tracesExporter,
    otlpEndpoint: config.telemetry.otlpEndpoint,
  });
  const metrics = new Metrics(config.service);
  const app = createApp(config);
  const state: ServiceState = { worker: undefined, workerStarted: false, stopping: false };
  const readiness = cachedReadiness(state);
  const connections = connectionCloser();
  mountLifecycleRoutes(app, { config, metrics, connections, readiness: readiness.check, state });

  const server = await listen(app, config);
  const port = (server.address() as AddressInfo).port;
  logger.info({ port, host: config.http.host }, `${config.service} listening`);

  const started = connectAndStart(def, { logger, metrics, app }, state, readiness);
  started.catch(() => undefined);
  const dependencyTimer = watchDependencies({ config, logger, metrics }, state, readiness.check);

  return {
    port,
    url: `http://${config.http.host}:${port}`,
    isReady: () => state.workerStarted && !state.stopping,
    started,
    async stop() {
      if (state.stopping) return;
      state.stopping = true;
      clearInterval(dependencyTimer);
      logger.info(`${config.service} stopping`);
      await drainHttp(server, connections, state.worker, logger);
      if (state.worker) await state.worker.stop();
      await state.bus?.close();
      await state.store?.close();
      logger.info(`${config.service} stopped`);
    },
  };
}

/** What the steps of one service's life share: its dependencies once connected, and where it is. */
interface ServiceState {
  store?: Store;
  bus?: Bus;
  worker: Worker | void;
  workerStarted: boolean;
  stopping: boolean;
}

function createApp(config: Readonly<HookrailConfig>): Express {
  const app = express();
  app.disable('x-powered-by');
  // Express hashes every response body for an ETag; API answers are not revalidated by clients,
  // and static assets (express.static) keep their own.
  app.set('etag', false);
  // Behind an Ingress every connection comes from the proxy: believe its X-Forwarded-For (for
  // req.ip: console sign-in throttling, access logs) only from the proxies configured.
  if (config.http.trustedProxies.length > 0) app.set('trust proxy', config.http.trustedProxies);
  return app;
}

/** MongoDB's and Kafka's answers to a ping, asked at most once a READINESS_CACHE_MS. */
function cachedReadiness(state: ServiceState) {
  let lastCheck = {
    at: 0,
    result: { mongodb: false, kafka: false, started: false } as Record<string, boolean>,
  };
  const check: ReadinessCheck = async () => {
    if (state.stopping) return { mongodb: false, kafka: false, started: false };
    if (Date.now() - lastCheck.at < READINESS_CACHE_MS) return lastCheck.result;
    const { store, bus } = state;
    const [mongodb, kafka] = await Promise.all([store ? store.ping() : false, bus ? bus.ping() : false]);
    lastCheck = { at: Date.now(), result: { mongodb, kafka, started: state.workerStarted } };
    return lastCheck.result;
  };
  return {
    check,
    /** The next check asks again. */
    invalidate: () => (lastCheck.at = 0),
  };
}
type Readiness = ReturnType<typeof cachedReadiness>;

function mountLifecycleRoutes(
  app: Express,
  deps: {
    config: Readonly<HookrailConfig>;
    metrics: Metrics;
    connections: ReturnType<typeof connectionCloser>;
    readiness: ReadinessCheck;
    state: ServiceState;
  },
): void {
  const { config, state } = deps;
  app.use(deps.connections.middleware);
  app.use(healthProbes({ readiness: deps.readiness, metrics: deps.metrics }));
  // Until the worker has mounted its routes, a request would get express's 404, which a client
  // takes as final (a restarting gateway or ingest answered 404 to valid events in the chaos
  // tests): answer 503 with Retry-After instead, so it is retried.
  app.use((_req, res, next) => {
    if (state.workerStarted) return next();
    const message = `${config.service} is starting, retry later`;
    res
      .status(503)
      .setHeader('Retry-After', '1')
      .json(fail(message, [{ field: '', message }]));
  });
  app.use(httpSpans());
}

async function listen(app: Express, config: Readonly<HookrailConfig>): Promise<Server> {
  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(config.http.port, config.http.host, () => resolve(s));
    s.once('error', reject);
  });
  server.keepAliveTimeout = 65_000;
  return server;
}

/**
 * A service starts only on a database whose migrations are all applied (the set-up applies them
 * before a release's pods start): until then it retries like an unreachable dependency, saying why.
 * It never creates collections or indexes itself (docs/database.md, "Migrations").
 */
async function requireMigrated(store: Store): Promise<void> {
  const pending = await store.migrations().pendingCount();
  if (pending > 0)
    throw new Error(`${pending} database migration(s) pending: the set-up applies them (node dist/setup.js)`);
}

/** Connects MongoDB and Kafka, then starts the worker, retrying with backoff until stop(). */
async function connectAndStart(
  def: ServiceDefinition,
  { logger, metrics, app }: Pick<ServiceContext, 'logger' | 'metrics' | 'app'>,
  state: ServiceState,
  readiness: Readiness,
): Promise<void> {
  const { config } = def;
  let delay = 250;
  for (;;) {
    if (state.stopping) throw new Error('stopped before dependencies were reachable');
    try {
      const store = (state.store ??= await Store.connect(config.mongodb.url, config.service));
      await requireMigrated(store);
      const deadLetters = store.deadLetters;
      const bus = (state.bus ??= new Bus(config.kafka, {
        logger,
        metrics,
        recordDeadLetter: (l) => deadLetters.record(l),
      }));
      await bus.ensureTopics();
      const publisher = await bus.connectPublisher();
      state.worker = await def.start({ config, logger, metrics, bus, store, publisher, app });
      state.workerStarted = true;
      readiness.invalidate();
      logger.info(`${config.service} started`);
      return;
    } catch (err) {
      logger.warn({ err: errorMessage(err) }, `dependencies not ready, retrying in ${delay} ms`);
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(delay * 2, 5000);
    }
  }
}

/**
 * Once started, checks MongoDB and Kafka every `dependencyCheckMs`: the hookrail_dependency_up
 * gauge, and a log line when one goes down or recovers.
 */
function watchDependencies(
  { config, logger, metrics }: Pick<ServiceContext, 'config' | 'logger' | 'metrics'>,
  state: ServiceState,
  readiness: ReadinessCheck,
): NodeJS.Timeout {
  const watch = new DependencyWatch();
  const up = metrics.gauge('hookrail_dependency_up', 'Whether MongoDB / Kafka answered the last check', [
    'dependency',
  ]);
  const checkDependencies = async () => {
    if (!state.workerStarted || state.stopping) return;
    const { mongodb, kafka } = await readiness();
    for (const [dependency, ok] of Object.entries({ mongodb, kafka })) up.set({ dependency }, ok ? 1 : 0);
    for (const change of watch.observe({ mongodb, kafka }, Date.now())) {
      if (change.kind === 'down')
        logger.warn({ dependency: change.dependency }, `${change.dependency} unreachable`);
      else
        logger.info(
          { dependency: change.dependency, down_for_ms: change.downForMs },
          `${change.dependency} recovered`,
        );
    }
  };
  const dependencyTimer = setInterval(
    () => void checkDependencies().catch(() => undefined),
    config.dependencyCheckMs,
  );
  dependencyTimer.unref();
  return dependencyTimer;
}

/** Closes the HTTP server, letting the exchanges on their way end within HTTP_DRAIN_MS. */
async function drainHttp(
  server: Server,
  connections: ReturnType<typeof connectionCloser>,
  worker: Worker | void,
  logger: Logger,
): Promise<void> {
  // HTTP first, while the worker and Kafka still serve the requests on their way: each busy
  // connection closes after its answer. A client that stops reading a response, or never
  // finishes sending its request, would hold the shutdown open until the hard exit: in-flight
  // exchanges get a bounded grace, then their connections are cut.
  connections.closing();
  worker?.endStreams?.();
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  // And again as exchanges begun before the stop end: an ended stream leaves its connection idle.
  const closeIdle = setInterval(() => server.closeIdleConnections(), 100);
  const drained = await Promise.race([closed.then(() => true), sleep(HTTP_DRAIN_MS, false, { ref: false })]);
  clearInterval(closeIdle);
  if (!drained) {
    logger.warn({ grace_ms: HTTP_DRAIN_MS }, HTTP_DRAIN_CUT_LOG);
    server.closeAllConnections();
    await closed;
  }
}

/** Runs a service as the process: SIGTERM/SIGINT stop it gracefully, with a hard exit after `graceMs`. */
export function runMain(def: ServiceDefinition, graceMs = 10_000): void {
  startService(def).then(
    (svc) => {
      const shutdown = (signal: string) => {
        const timer = setTimeout(() => {
          console.error(`${def.config.service}: graceful shutdown exceeded ${graceMs} ms, exiting`);
          process.exit(1);
        }, graceMs - 500);
        timer.unref();
        svc
          .stop()
          // The exporter batches: without a flush the spans of the last seconds are lost.
          .then(() => stopTracing())
          .then(
            () => process.exit(0),
            (err) => {
              console.error(`${def.config.service}: error during shutdown after ${signal}`, err);
              process.exit(1);
            },
          );
      };
      process.once('SIGTERM', () => shutdown('SIGTERM'));
      process.once('SIGINT', () => shutdown('SIGINT'));
    },
    (err) => {
      console.error(`${def.config.service}: failed to start`, err);
      process.exit(1);
    },
  );
}
