import { Router } from 'express';
import type { HookrailConfig } from '@hookrail/config';
import { SecretBox, fail, relayCredential } from '@hookrail/domain';
import { HttpClient } from '@hookrail/outbound';
import { FunctionPool } from '@hookrail/functions';
import { accessLog, credentialKey, rateLimiter, type ServiceDefinition } from '@hookrail/runtime';
import { EventValidator } from '@hookrail/ingest';
import { ConfigCache } from '@hookrail/store';
import { PublishGuard } from '@hookrail/bus';
import type { GatewayDeps } from './deps';
import { createConsole } from './console';
import { mountApiRoutes } from './http/api-router';
import { errorMapper } from './http/error-mapper';
import { jsonBody } from './http/json-body';
import { methodNotAllowed } from './http/method-not-allowed';
import { portalOperations } from '@hookrail/api-contract';
import { buildOpenApi } from './openapi/openapi';
import { mountPortal } from './portal';
import { managementRoutes } from './http/management-routes';
import { ListenerRouting } from './listen/listener-routing';
import { Listeners } from './listen/listeners';
import { relayRouter } from './listen/relay-router';

const API_VERSION = '1.0.0';

/** The management API under /api: operations from libs/api-contract with handlers by resource, the OpenAPI document, one error mapper. */
export function definition(config: Readonly<HookrailConfig>): ServiceDefinition {
  return {
    config,
    async start({ app, bus, store, publisher, logger, metrics }) {
      if (!config.security.adminKey)
        logger.warn('HOOKRAIL_ADMIN_KEY is not set: projects cannot be created through the API');
      const functions = new FunctionPool({ metrics });
      const listeners = new Listeners();
      const relaySecret = relayCredential(config.security);
      const deps: GatewayDeps = {
        config,
        store,
        cache: new ConfigCache(store),
        publisher,
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
      metrics.gauge('hookrail_cli_listeners', 'hookrail listen streams connected to this replica', [], (g) =>
        g.set(deps.listeners.size),
      );
      const routes = managementRoutes(deps);
      // Built on first request, not at start: compiling its fields' schemas is about a sixth of
      // a gateway's start-up CPU, and most replicas are never asked for it.
      let openapi: ReturnType<typeof buildOpenApi> | undefined;
      const openApiDocument = () =>
        (openapi ??= buildOpenApi([...routes, ...Object.values(portalOperations)], {
          version: API_VERSION,
          gatewayUrl: config.urls.gatewayPublic,
        }));
      app.use(accessLog(logger, config.log.requests));
      const api = Router();
      // The document describes the API and holds no data, so it is served without a key.
      api.get('/openapi.json', (_req, res) => void res.json(openApiDocument()));
      // Limits per replica (docs/decisions.md): per API key, then per project in the path.
      const { windowMs, apiKey, project } = config.rateLimits;
      api.use(
        rateLimiter(
          {
            name: 'API key',
            limit: apiKey,
            windowMs,
            key: (req) => credentialKey(req.headers.authorization),
          },
          {
            name: 'project',
            limit: project,
            windowMs,
            key: (req) => /^\/v1\/projects\/([^/]+)/.exec(req.path)?.[1] ?? null,
          },
        ),
      );
      api.use(jsonBody(config.http.bodyLimitBytes));
      const gatewayConsole = createConsole(deps);
      mountApiRoutes(api, routes, {
        cache: deps.cache,
        metrics,
        adminKey: config.security.adminKey,
        session: gatewayConsole.session,
        announceConfigChange: (projectId) => bus.announceConfigChange(projectId),
      });
      api.use(methodNotAllowed(routes));
      api.use((req, res) => {
        res.status(404).json(fail(`no route for ${req.method} ${req.originalUrl.split('?')[0]}`));
      });
      api.use(errorMapper(logger));
      app.use('/api', api);
      app.use('/relay', relayRouter(deps, relaySecret));
      mountPortal(app, deps);
      gatewayConsole.mount(app);
      return {
        // `hookrail listen` streams end first: each CLI reconnects to another gateway.
        endStreams: () => deps.listeners.closeAll(),
        stop: async () => {
          deps.listeners.closeAll();
          deps.http.close();
          await deps.functions.close();
        },
      };
    },
  };
}
