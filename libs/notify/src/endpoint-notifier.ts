import { errorMessage } from '@hookrail/domain';
import type { Logger } from '@hookrail/telemetry';
import type { EmailSender } from './email';
import { composeNotice, type EndpointNotice, type NoticeEndpoint } from './messages';
import type { SlackSender } from './slack';

export type ChannelOutcome = 'sent' | 'not_configured' | 'failed';

export interface NotifiableEndpoint extends NoticeEndpoint {
  support_email: string | null;
  slack_webhook_url: string | null;
}

/**
 * Tells an endpoint's owners (support_email, slack_webhook_url) what happened. Best effort: the
 * state change it reports is already durable, so a failed channel is logged and reported, never
 * thrown.
 */
export class EndpointNotifier {
  constructor(private readonly deps: { email?: EmailSender; slack: SlackSender; logger: Logger }) {}

  async notify(
    endpoint: NotifiableEndpoint,
    notice: EndpointNotice,
  ): Promise<{ email: ChannelOutcome; slack: ChannelOutcome }> {
    const composed = composeNotice(endpoint, notice);
    const log = { project_id: endpoint.project_id, endpoint_id: endpoint._id, notice: notice.kind };
    const attempt = async (channel: string, run: (() => Promise<void>) | null): Promise<ChannelOutcome> => {
      if (!run) return 'not_configured';
      try {
        await run();
        return 'sent';
      } catch (err) {
        this.deps.logger.warn({ ...log, channel, err: errorMessage(err) }, 'endpoint notification failed');
        return 'failed';
      }
    };
    const { email, slack } = this.deps;
    const [e, s] = await Promise.all([
      attempt(
        'email',
        endpoint.support_email && email ? () => email.send(endpoint.support_email as string, composed) : null,
      ),
      attempt(
        'slack',
        endpoint.slack_webhook_url ? () => slack.send(endpoint.slack_webhook_url as string, composed) : null,
      ),
    ]);
    return { email: e, slack: s };
  }
}
