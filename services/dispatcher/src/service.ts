import type { HookrailConfig } from '@hookrail/config';
import type { ServiceDefinition } from '@hookrail/runtime';
import { persistEvent } from './router/persist-event';

/** Consumer groups are part of the contract between replicas: every dispatcher joins the same ones. */
export const ROUTER_GROUP = 'dispatcher-router';

export function definition(config: Readonly<HookrailConfig>): ServiceDefinition {
  return {
    config,
    async start({ bus, store, logger }) {
      const router = await bus.consume(ROUTER_GROUP, {
        topic: 'events',
        concurrency: 50,
        handle: (message) => persistEvent(store, message, logger),
      });
      return { stop: () => router.disconnect() };
    },
  };
}
