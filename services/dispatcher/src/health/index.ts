import type { Publisher } from '@hookrail/bus';
import type { HookrailConfig } from '@hookrail/config';
import type { HttpClient } from '@hookrail/delivery';
import { EmailSender, EndpointNotifier, SlackSender } from '@hookrail/notify';
import type { Store } from '@hookrail/store';
import type { Logger, Metrics } from '@hookrail/telemetry';
import { EndpointDisabler } from './endpoint-disabler';
import { EndpointHealth } from './endpoint-health';
import type { ProjectId } from '@hookrail/domain';

export { EndpointHealth } from './endpoint-health';

/** Endpoint health for one dispatcher: notifications by SMTP when configured, Slack always. */
export function createEndpointHealth(deps: {
  config: Readonly<HookrailConfig>;
  /** The dispatcher's outbound HTTP client (Slack notices go through it too). */
  http: HttpClient;
  store: Store;
  publisher: Publisher;
  logger: Logger;
  metrics: Metrics;
  invalidate?: (projectId: ProjectId) => void | Promise<unknown>;
}): EndpointHealth {
  const { config, logger } = deps;
  const notifier = new EndpointNotifier({
    email: config.smtp.url ? new EmailSender(config.smtp.url, config.smtp.from) : undefined,
    slack: new SlackSender(deps.http),
    logger,
  });
  return new EndpointHealth(new EndpointDisabler({ ...deps, notifier }), logger);
}
