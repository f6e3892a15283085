import { HttpClient } from '@hookrail/outbound';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { createLogger } from '@hookrail/telemetry';
import { startReceiver, type Receiver } from '@hookrail/testkit';
import { EmailSender } from './email';
import { EndpointNotifier } from './endpoint-notifier';
import { SlackSender } from './slack';

interface Mail {
  from: string;
  to: string[];
  data: string;
}

let smtp: SMTPServer;
let smtpPort: number;
const mails: Mail[] = [];
let slackHook: Receiver;
let email: EmailSender;
const logger = createLogger({ service: 'tests', level: 'silent' });

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          data: Buffer.concat(chunks).toString(),
        });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpPort = (smtp.server.address() as AddressInfo).port;
  slackHook = await startReceiver();
  email = new EmailSender(`smtp://127.0.0.1:${smtpPort}`, 'hookrail@test.local');
});

afterAll(async () => {
  email.close();
  await slackHook.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

const endpoint = {
  _id: 'ep1',
  project_id: 'p1',
  name: 'orders',
  url: 'https://example.com/hook',
  support_email: 'ops@customer.example',
  slack_webhook_url: null as string | null,
};

describe('EndpointNotifier', () => {
  it('e-mails support_email and posts to slack_webhook_url when an endpoint is disabled', async () => {
    const notifier = new EndpointNotifier({
      email,
      slack: new SlackSender(new HttpClient({ allowPrivateTargets: true })),
      logger,
    });
    const out = await notifier.notify(
      { ...endpoint, slack_webhook_url: `${slackHook.url}/services/T/B/X` },
      { kind: 'disabled', reason: 'the endpoint answered 410 Gone' },
    );
    expect(out).toEqual({ email: 'sent', slack: 'sent' });
    const mail = mails[mails.length - 1];
    expect(mail.from).toBe('hookrail@test.local');
    expect(mail.to).toEqual(['ops@customer.example']);
    expect(mail.data).toContain('Subject: [Hookrail] Endpoint orders was disabled');
    expect(mail.data).toContain('410 Gone');
    const post = slackHook.requests[slackHook.requests.length - 1];
    expect(post.path).toBe('/services/T/B/X');
    expect(JSON.parse(post.body)).toEqual({ text: expect.stringContaining('Endpoint orders was disabled') });
  });

  it('skips channels that are not configured', async () => {
    const notifier = new EndpointNotifier({
      slack: new SlackSender(new HttpClient({ allowPrivateTargets: true })),
      logger,
    });
    const out = await notifier.notify(endpoint, { kind: 'alert', failures: 3, threshold: '1h' });
    expect(out).toEqual({ email: 'not_configured', slack: 'not_configured' });
  });

  it('reports a failing channel without throwing, and still uses the other', async () => {
    const notifier = new EndpointNotifier({
      email: new EmailSender('smtp://127.0.0.1:1', 'hookrail@test.local'),
      slack: new SlackSender(new HttpClient({ allowPrivateTargets: true })),
      logger,
    });
    const before = slackHook.count();
    const out = await notifier.notify(
      { ...endpoint, slack_webhook_url: slackHook.url },
      { kind: 'alert', failures: 3, threshold: '1h' },
    );
    expect(out).toEqual({ email: 'failed', slack: 'sent' });
    expect(slackHook.count()).toBe(before + 1);
  });

  it('refuses a Slack webhook on a private address unless the instance allows private targets', async () => {
    const notifier = new EndpointNotifier({
      slack: new SlackSender(new HttpClient({ allowPrivateTargets: false })),
      logger,
    });
    const before = slackHook.count();
    const out = await notifier.notify(
      { ...endpoint, support_email: null, slack_webhook_url: slackHook.url },
      { kind: 'disabled', reason: 'x' },
    );
    expect(out.slack).toBe('failed');
    expect(slackHook.count()).toBe(before);
  });
});
