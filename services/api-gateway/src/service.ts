import type { HookrailConfig } from '@hookrail/config';
import type { ServiceDefinition } from '@hookrail/runtime';

export function definition(config: Readonly<HookrailConfig>): ServiceDefinition {
  return {
    config,
    async start() {
      // Wiring lands with its issue; the process already serves health, readiness and metrics.
    },
  };
}
