import type { HttpClient } from '@hookrail/outbound';
import type { ComposedNotice } from './messages';

/** A notice is tried this many times in all when Slack fails in a way a retry may fix. */
const ATTEMPTS = 3;

/**
 * Posts a notice to a Slack incoming webhook (`slack_webhook_url`) through the shared outbound
 * HTTP client: the URL is user input, so it passes the same SSRF guard as deliveries, and no
 * redirect is followed (an answer other than 2xx is a failure).
 */
export class SlackSender {
  constructor(
    private readonly http: Pick<HttpClient, 'send'>,
    private readonly opts: { timeoutMs?: number } = {},
  ) {}

  async send(webhookUrl: string, notice: ComposedNotice): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const res = await this.http.send({
        url: webhookUrl,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: `*${notice.subject}*\n${notice.text}` }),
        timeoutMs: this.opts.timeoutMs ?? 5000,
        poolKey: 'slack',
      });
      if (res.kind === 'response' && res.status < 300) return;
      const failure = res.kind === 'response' ? `slack webhook answered ${res.status}` : res.message;
      const retriable =
        res.kind === 'response'
          ? res.status >= 500 || res.status === 429
          : res.code !== 'ESSRF' && res.code !== 'ERR_INVALID_URL';
      if (!retriable || attempt >= ATTEMPTS) throw new Error(failure);
    }
  }
}
