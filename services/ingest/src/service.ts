import type { HookrailConfig } from '@hookrail/config';
import { SecretBox } from '@hookrail/domain';
import { FunctionPool } from '@hookrail/functions';
import { accessLog, type ServiceDefinition } from '@hookrail/runtime';
import { ingestRouter } from './ingest.routes';
import { SourceLookup } from './source-lookup';

export interface IngestOptions {
  /** How long a sender waits for Kafka's acknowledgement before getting 503. */
  publishTimeoutMs?: number;
  /** How long a source lookup is cached. */
  lookupTtlMs?: number;
}

export function definition(config: Readonly<HookrailConfig>, opts: IngestOptions = {}): ServiceDefinition {
  return {
    config,
    async start({ app, store, publisher, logger, metrics }) {
      const functions = new FunctionPool({ metrics });
      await functions.ready();
      const lookup = new SourceLookup(store, opts.lookupTtlMs ?? 2000);
      app.use(accessLog(logger, config.log.requests));
      app.use(
        ingestRouter({
          store,
          lookup,
          publisher,
          functions,
          box: new SecretBox(config.security.encryptionKey),
          logger,
          metrics,
          publishTimeoutMs: opts.publishTimeoutMs ?? 10_000,
        }),
      );
      return { stop: () => functions.close() };
    },
  };
}
