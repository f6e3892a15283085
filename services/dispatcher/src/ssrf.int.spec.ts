import { fetchOAuth2Token, HttpClient, SsrfRefusedError, type Resolve } from '@hookrail/outbound';
import { SlackSender } from '@hookrail/notify';
import type { RunningService } from '@hookrail/runtime';
import type { Store } from '@hookrail/store';
import {
  connectTestStore,
  eventMessage,
  makeEndpoint,
  makeProject,
  makeSubscription,
  startOAuth2Server,
  startReceiver,
  startTestService,
  TEST_BROKERS,
  testBus,
  testConfig,
  uniquePrefix,
  waitFor,
  type Receiver,
} from '@hookrail/testkit';
import { newId } from '@hookrail/domain';
import { definition } from './service';

/** A dispatcher as deployed (private targets not allowed) against a real receiver on loopback. */
describe('dispatcher SSRF guard', () => {
  const prefix = uniquePrefix('ssrf');
  const bus = testBus(prefix);
  let store: Store;
  let dispatcher: RunningService;
  let receiver: Receiver;

  beforeAll(async () => {
    store = await connectTestStore();
    receiver = await startReceiver();
    dispatcher = await startTestService(
      definition(
        testConfig('dispatcher', {
          HOOKRAIL_KAFKA_TOPIC_PREFIX: prefix,
          HOOKRAIL_ALLOW_PRIVATE_TARGETS: 'false',
        }),
      ),
    );
  });
  afterAll(async () => {
    await dispatcher?.stop();
    await receiver?.close();
    await bus.close();
    await store?.close();
  });

  it.each([
    ['a loopback IP literal', (port: number) => `http://127.0.0.1:${port}/hook`],
    ['a name that resolves to loopback', (port: number) => `http://localhost:${port}/hook`],
    ['the cloud metadata address', () => 'http://169.254.169.254/latest/meta-data/'],
  ])('refuses %s: the delivery fails with the reason and nothing is sent', async (_label, url) => {
    const projectId = await makeProject(store, { strategy: { type: 'linear', duration: 1, retry_count: 0 } });
    const ep = await makeEndpoint(store, projectId, { url: url(Number(new URL(receiver.url).port)) });
    const sourceId = newId();
    await makeSubscription(store, projectId, { endpoint_id: ep._id, source_id: sourceId });
    const m = eventMessage(projectId, { source_id: sourceId });
    await (await bus.connectPublisher()).publish('events', [m]);

    const [delivery] = await waitFor('delivery failed', async () => {
      const ds = await store.deliveries.listByEvents(projectId, [m.event_id]);
      return ds[0]?.status === 'Failure' ? ds : undefined;
    });
    const attempt = delivery.attempts[delivery.attempts.length - 1];
    expect(attempt?.error ?? delivery.status_reason).toMatch(/private, loopback or link-local/);
    expect(attempt?.http_status ?? null).toBeNull();
    expect(receiver.requests).toHaveLength(0);
  });

  // Written straight into the database, past the API's check: the publisher's own connections refuse.
  it.each([
    ['kafka', 'kafka', { brokers: TEST_BROKERS.kafkaBrokers, topic_name: `${prefix}-guarded` }],
    ['amqp, a name that resolves to loopback', 'amqp', { host: 'localhost', queue: `${prefix}-guarded` }],
  ] as const)(
    'refuses a broker destination on loopback (%s): the attempt fails with the reason',
    async (_l, type, destination) => {
      const projectId = await makeProject(store, {
        strategy: { type: 'linear', duration: 1, retry_count: 0 },
      });
      const ep = await makeEndpoint(store, projectId, { url: '', type, destination: { ...destination } });
      const sourceId = newId();
      await makeSubscription(store, projectId, { endpoint_id: ep._id, source_id: sourceId });
      const m = eventMessage(projectId, { source_id: sourceId });
      await (await bus.connectPublisher()).publish('events', [m]);
      const [delivery] = await waitFor('delivery failed', async () => {
        const ds = await store.deliveries.listByEvents(projectId, [m.event_id]);
        return ds[0]?.status === 'Failure' ? ds : undefined;
      });
      expect(delivery.attempts.at(-1)?.error).toMatch(/private, loopback or link-local/);
      expect(delivery.attempts.at(-1)?.method).toBe('PUBLISH');
    },
  );
});

/** Every other outbound call a user's settings can aim: OAuth2 token URLs, alert webhooks, redirects, DNS. */
describe('outbound safety beyond webhooks', () => {
  const guarded = new HttpClient({ allowPrivateTargets: false });
  const open = new HttpClient({ allowPrivateTargets: true });
  const cleanup: (() => Promise<void>)[] = [];
  afterAll(async () => {
    guarded.close();
    open.close();
    await Promise.all(cleanup.map((c) => c()));
  });
  const receiver = async (opts: Parameters<typeof startReceiver>[0] = {}) => {
    const r = await startReceiver(opts);
    cleanup.push(() => r.close());
    return r;
  };
  const notice = { subject: 'endpoint disabled', text: 'test' };

  it.each([
    ['a loopback name', (port: string) => `http://localhost:${port}/token`],
    ['a loopback IP literal', (port: string) => `http://127.0.0.1:${port}/token`],
    ['an IPv4-mapped IPv6 literal', (port: string) => `http://[::ffff:127.0.0.1]:${port}/token`],
  ])('refuses an OAuth2 token URL on %s; the token server sees nothing', async (_label, url) => {
    const server = await startOAuth2Server({ clientId: 'c', clientSecret: 's' });
    cleanup.push(() => server.close());
    const res = await fetchOAuth2Token(
      {
        url: url(new URL(server.url).port),
        client_id: 'c',
        client_secret: 's',
        authentication_type: 'shared_secret',
      },
      { http: guarded },
    );
    expect(res.success).toBe(false);
    expect(JSON.stringify(res)).toMatch(/private, loopback or link-local/);
    expect(server.requests).toHaveLength(0);
  });

  it('refuses Slack alert webhooks on private addresses', async () => {
    const r = await receiver();
    const slack = new SlackSender(guarded, { timeoutMs: 2000 });
    const port = new URL(r.url).port;
    for (const url of [
      `http://localhost:${port}/hook`,
      `http://127.0.0.1:${port}/hook`,
      'http://169.254.169.254/',
    ]) {
      await expect(slack.send(url, notice)).rejects.toThrow(/private, loopback or link-local/);
    }
    expect(r.requests).toHaveLength(0);
  });

  it('never follows a redirect: webhooks, token URLs and Slack stop at the first answer', async () => {
    const target = await receiver();
    const redirecting = await receiver({
      respond: () => ({ status: 307, headers: { location: `${target.url}/internal` } }),
    });
    const webhook = await open.send({
      url: `${redirecting.url}/hook`,
      headers: {},
      body: '{}',
      timeoutMs: 2000,
      poolKey: 't',
    });
    expect(webhook).toMatchObject({ kind: 'response', status: 307 });
    const token = await fetchOAuth2Token(
      {
        url: `${redirecting.url}/token`,
        client_id: 'c',
        client_secret: 's',
        authentication_type: 'shared_secret',
      },
      { http: open },
    );
    expect(token.success).toBe(false);
    const slack = new SlackSender(open, { timeoutMs: 2000 });
    await expect(slack.send(`${redirecting.url}/slack`, notice)).rejects.toThrow();
    expect(redirecting.requests.length).toBeGreaterThanOrEqual(3);
    expect(target.requests).toHaveLength(0);
  });

  it('checks the address at connect time: a name that rebinds to loopback is refused on the next connection', async () => {
    const r = await receiver();
    // First answer: a public address (TEST-NET-3, unreachable here); then the receiver's loopback.
    const answers = ['203.0.113.10', '127.0.0.1'];
    let calls = 0;
    const resolve: Resolve = (_host, _opts, cb) =>
      cb(null, [{ address: answers[Math.min(calls++, answers.length - 1)], family: 4 }]);
    const rebinding = new HttpClient({ allowPrivateTargets: false, resolve });
    cleanup.push(async () => rebinding.close());
    const url = `http://rebind.example:${new URL(r.url).port}/hook`;
    const first = await rebinding.send({ url, headers: {}, body: '{}', timeoutMs: 300, poolKey: 'a' });
    expect(first.kind).toBe('error');
    expect(first).not.toMatchObject({ code: 'ESSRF' });
    const second = await rebinding.send({ url, headers: {}, body: '{}', timeoutMs: 2000, poolKey: 'b' });
    expect(second).toMatchObject({ kind: 'error', code: 'ESSRF' });
    expect(calls).toBe(2);
    expect(r.requests).toHaveLength(0);
    expect(new SsrfRefusedError('x').code).toBe('ESSRF');
  });
});
