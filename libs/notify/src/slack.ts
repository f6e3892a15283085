import got from 'got';
import { checkLiteralTarget, guardedLookup } from '@hookrail/delivery';
import type { ComposedNotice } from './messages';

/**
 * Posts a notice to a Slack incoming webhook (`slack_webhook_url`). The URL is user input, so it
 * passes the same SSRF guard as deliveries.
 */
export class SlackSender {
  constructor(private readonly opts: { allowPrivateTargets: boolean; timeoutMs?: number }) {}

  async send(webhookUrl: string, notice: ComposedNotice): Promise<void> {
    const url = new URL(webhookUrl);
    const refused = checkLiteralTarget(url, this.opts.allowPrivateTargets);
    if (refused) throw refused;
    const res = await got.post(url, {
      json: { text: `*${notice.subject}*\n${notice.text}` },
      timeout: { request: this.opts.timeoutMs ?? 5000 },
      retry: { limit: 2, methods: ['POST'] },
      // A redirect could point at a private address the first hop's checks never saw (an IP
      // literal skips the guarded lookup): Slack's webhooks never redirect, so none is followed.
      followRedirect: false,
      dnsLookup: this.opts.allowPrivateTargets ? undefined : guardedLookup,
    });
    if (res.statusCode >= 300) throw new Error(`slack webhook answered ${res.statusCode}`);
  }
}
