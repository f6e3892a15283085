import type { HookrailConfig } from '@hookrail/config';
import { PublishGuard } from '@hookrail/bus';
import { SecretBox } from '@hookrail/domain';
import { FunctionPool } from '@hookrail/functions';
import { EventValidator } from '@hookrail/ingest';
import { accessLog, rateLimiter, type ServiceDefinition } from '@hookrail/runtime';
import { ingestRouter } from './ingest.routes';
import { SourceLookup } from './source-lookup';

export interface IngestOptions {
  /** How long a sender waits for Kafka's acknowledgement before getting 503 (default: config). */
  publishTimeoutMs?: number;
  /** How long a source lookup is cached. */
  lookupTtlMs?: number;
}

export function definition(config: Readonly<HookrailConfig>, opts: IngestOptions = {}): ServiceDefinition {
  return {
    config,
    async start({ app, store, publisher, logger, metrics }) {
      const functions = new FunctionPool({ metrics });
      const lookup = new SourceLookup(store, opts.lookupTtlMs ?? 2000);
      app.use(accessLog(logger, config.log.requests));
      // Per source and replica: one sender cannot take all of a replica's capacity.
      app.use(
        '/ingest/:maskId',
        rateLimiter({
          name: 'source',
          limit: config.rateLimits.source,
          windowMs: config.rateLimits.windowMs,
          key: (req) => (req.params as { maskId?: string }).maskId ?? null,
        }),
      );
      app.use(
        ingestRouter({
          store,
          lookup,
          publisher,
          functions,
          box: new SecretBox(config.security.encryptionKey),
          logger,
          metrics,
          acceptGuard: PublishGuard.logging(opts.publishTimeoutMs ?? config.kafka.acceptTimeoutMs, logger),
          validator: new EventValidator(
            (projectId, name) => store.eventCatalog.findByName(projectId, name),
            metrics,
            'http_source',
          ),
        }),
      );
      return { stop: () => functions.close() };
    },
  };
}
