import { Router } from 'express';
import type { HookrailConfig } from '@hookrail/config';
import { SecretBox, relayCredential } from '@hookrail/domain';
import { HttpClient } from '@hookrail/outbound';
import { FunctionPool } from '@hookrail/functions';
import { accessLog, type ServiceDefinition } from '@hookrail/runtime';
import { EventValidator } from '@hookrail/ingest';
import { ConfigCache } from '@hookrail/store';
import { PublishGuard } from '@hookrail/bus';
import type { GatewayDeps } from './deps';
import { createConsole } from './console';
import type { BoundOperation } from './http/call';
import type { GatewaySurface } from './http/mount-operations';
import { serveSurface, type SurfaceDeps } from './http/surface-router';
import { buildOpenApi } from './openapi/openapi';
import { mountPortalPage } from './portal';
import { gatewayAuthenticators, gatewayOperations } from './routes';
import { auditRecorder } from './audit/record-call';
import { auditSink } from './audit/audit-sink';
import { ListenerRouting } from './listen/listener-routing';
import { Listeners } from './listen/listeners';

const API_VERSION = '1.0.0';

/**
 * The gateway's HTTP surfaces (the management API under /api, the portal API, the console's session
 * calls, the internal relay), each served from libs/api-contract's operations by one mount
 * function, with handlers by resource; the OpenAPI document; the portal's and console's pages.
 */
export function definition(config: Readonly<HookrailConfig>): ServiceDefinition {
  return {
    config,
    async start({ app, bus, store, publisher, logger, metrics }) {
      if (!config.security.adminKey)
        logger.warn('HOOKRAIL_ADMIN_KEY is not set: projects cannot be created through the API');
      const relaySecret = relayCredential(config.security);
      const deps = gatewayDeps(config, { bus, store, publisher, logger, metrics }, relaySecret);
      metrics.gauge('hookrail_cli_listeners', 'hookrail listen streams connected to this replica', [], (g) =>
        g.set(deps.listeners.size),
      );
      const gatewayConsole = createConsole(deps);
      const operations = gatewayOperations(deps, gatewayConsole);
      const surface: SurfaceDeps = {
        authenticators: gatewayAuthenticators(deps, gatewayConsole, relaySecret),
        cache: deps.cache,
        announceConfigChange: (projectId) => bus.announceConfigChange(projectId),
        audit: auditRecorder(deps),
        metrics,
        logger,
        bodyLimitBytes: config.http.bodyLimitBytes,
        rateLimits: config.rateLimits,
      };
      app.use(accessLog(logger, config.log.requests));
      app.use('/api', apiRouter(operations, surface, config));
      app.use('/relay', serveSurface(Router(), 'relay', operations.relay, surface));
      app.use('/portal-api', serveSurface(Router(), 'portal', operations.portal, surface));
      mountPortalPage(app);
      // The console's pages share its prefix: its surface owns only /console/session.
      app.use('/console', serveSurface(Router(), 'console', operations.console, surface, '/session'));
      gatewayConsole.mountPages(app);
      return {
        // `hookrail listen` streams end first: each CLI reconnects to another gateway.
        endStreams: () => deps.listeners.closeAll(),
        stop: async () => {
          await deps.audit.stop();
          deps.listeners.closeAll();
          deps.http.close();
          await deps.functions.close();
        },
      };
    },
  };
}

/** The management API, and before its rate limits the OpenAPI document of it and the portal's. */
function apiRouter(
  operations: Record<GatewaySurface, BoundOperation[]>,
  surface: SurfaceDeps,
  config: Readonly<HookrailConfig>,
): Router {
  // Built on first request, not at start: compiling its fields' schemas is about a sixth of
  // a gateway's start-up CPU, and most replicas are never asked for it.
  let openapi: ReturnType<typeof buildOpenApi> | undefined;
  const openApiDocument = () =>
    (openapi ??= buildOpenApi([...operations.api, ...operations.portal], {
      version: API_VERSION,
      gatewayUrl: config.urls.gatewayPublic,
    }));
  const api = Router();
  // The document describes the API and holds no data, so it is served without a key.
  api.get('/openapi.json', (_req, res) => void res.json(openApiDocument()));
  return serveSurface(api, 'api', operations.api, surface);
}

type StartContext = Parameters<ServiceDefinition['start']>[0];

/** What handlers and use cases need, built once per gateway. */
function gatewayDeps(
  config: Readonly<HookrailConfig>,
  ctx: Pick<StartContext, 'bus' | 'store' | 'publisher' | 'logger' | 'metrics'>,
  relaySecret: string | undefined,
): GatewayDeps {
  const { bus, store, publisher, logger, metrics } = ctx;
  const functions = new FunctionPool({ metrics });
  const listeners = new Listeners();
  return {
    config,
    store,
    cache: new ConfigCache(store),
    publisher,
    audit: auditSink({
      publisher,
      store,
      logger,
      metrics,
      publishWindowMs: config.audit.publishWindowMs,
    }),
    bus,
    acceptGuard: PublishGuard.logging(config.kafka.acceptTimeoutMs, logger),
    eventValidator: new EventValidator(
      (projectId, name) => store.eventCatalog.findByName(projectId, name),
      metrics,
      'events_api',
    ),
    logger,
    metrics,
    box: new SecretBox(config.security.encryptionKey),
    http: new HttpClient({ allowPrivateTargets: config.security.allowPrivateTargets }),
    functions,
    listeners,
    listenerRouting: new ListenerRouting({
      listeners,
      store,
      logger,
      selfUrl: config.urls.cliRelayAdvertise,
      instanceId: config.instanceId,
      credential: relaySecret,
    }),
    now: () => new Date(),
  };
}
