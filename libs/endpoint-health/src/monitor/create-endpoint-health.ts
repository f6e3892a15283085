import type { Publisher } from '@hookrail/bus';
import type { HttpClient } from '@hookrail/outbound';
import type { ProjectId } from '@hookrail/domain';
import { EmailSender, EndpointNotifier, SlackSender } from '@hookrail/notify';
import type { Store } from '@hookrail/store';
import type { Logger, Metrics } from '@hookrail/telemetry';
import { EndpointDisabler } from './endpoint-disabler';
import { EndpointHealth } from './endpoint-health';

/** Endpoint health for one dispatcher: notifications by SMTP when configured, Slack always. */
export function createEndpointHealth(deps: {
  smtp: { url?: string; from: string };
  /** The dispatcher's outbound HTTP client (Slack notices go through it too). */
  http: HttpClient;
  store: Store;
  publisher: Publisher;
  logger: Logger;
  metrics: Metrics;
  invalidate?: (projectId: ProjectId) => void | Promise<unknown>;
}): EndpointHealth {
  const { smtp, logger } = deps;
  const notifier = new EndpointNotifier({
    email: smtp.url ? new EmailSender(smtp.url, smtp.from) : undefined,
    slack: new SlackSender(deps.http),
    logger,
  });
  return new EndpointHealth(new EndpointDisabler({ ...deps, notifier }), logger, deps.metrics);
}
