import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import type { MetaMessage } from '@hookrail/bus';
import { newId, type ProjectId } from '@hookrail/domain';
import type { RunningService } from '@hookrail/runtime';
import type { DeliveryDoc, ProjectConfig, Store, SubscriptionDoc } from '@hookrail/store';
import {
  connectTestStore,
  startReceiver,
  startTestService,
  testBus,
  testConfig,
  uniquePrefix,
  waitFor,
  type Receiver,
  type ReceiverOptions,
  eventMessage,
  makeEndpoint,
  makeProject,
  makeSubscription,
} from '@hookrail/testkit';
import { definition as retrySchedulerDefinition } from '../../retry-scheduler/src/service';
import { releaseHeldDeliveries, resendDelivery } from '@hookrail/operations';
import { definition } from './service';

jest.setTimeout(90_000);

/**
 * A retry is never early; it may be late by the scheduler's firing lateness plus one pass through
 * the dispatcher (load the delivery, record the attempt), which on the shared test database server
 * under load takes up to ~1.5 s, more on a host slower still. The upper bounds only tell the
 * policy's wait from a much longer one (see the exponential case's uncapped wait).
 */
const SLACK_MS = 4000;

/** Dispatcher + retry-scheduler on the real servers, delivering to real receivers. */
describe('retries, limits and endpoint health through the real pipeline', () => {
  const prefix = uniquePrefix('health');
  const bus = testBus(prefix);
  const closers: { close(): Promise<void> }[] = [];
  const services: RunningService[] = [];
  const meta: MetaMessage[] = [];
  const mails: string[] = [];
  let smtp: SMTPServer;
  let store: Store;

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, done) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => (mails.push(Buffer.concat(chunks).toString()), done()));
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
    store = await connectTestStore();
    const env = { HOOKRAIL_KAFKA_TOPIC_PREFIX: prefix, HOOKRAIL_SMTP_URL: smtpUrl };
    services.push(
      await startTestService(definition(testConfig('dispatcher', env))),
      await startTestService(retrySchedulerDefinition(testConfig('retry-scheduler', env))),
    );
    await bus.consume('test-meta', { topic: 'meta', handle: async (m) => void meta.push(m) });
  });
  afterAll(async () => {
    await Promise.all(services.map((s) => s.stop()));
    await Promise.all(closers.map((c) => c.close()));
    await bus.close();
    await store?.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  const receiver = async (opts: ReceiverOptions = {}): Promise<Receiver> => {
    const r = await startReceiver(opts);
    closers.push(r);
    return r;
  };
  const setup = async (opts: {
    receiver?: ReceiverOptions;
    project?: Partial<ProjectConfig>;
    endpoint?: Parameters<typeof makeEndpoint>[2] extends infer E ? Partial<E> : never;
    subscription?: Partial<SubscriptionDoc>;
  }) => {
    const rec = await receiver(opts.receiver);
    const projectId = await makeProject(store, {
      strategy: { type: 'linear', duration: 1, retry_count: 3 },
      ...opts.project,
    });
    const endpoint = await makeEndpoint(store, projectId, { url: `${rec.url}/hook`, ...opts.endpoint });
    const sourceId = newId();
    await makeSubscription(store, projectId, {
      endpoint_id: endpoint._id,
      source_id: sourceId,
      ...opts.subscription,
    });
    const publish = async (n = 1) => {
      const ms = Array.from({ length: n }, () => eventMessage(projectId, { source_id: sourceId }));
      await (await bus.connectPublisher()).publish('events', ms);
      return ms.map((m) => m.event_id);
    };
    return { rec, projectId, endpoint, publish };
  };
  const deliveryOf = async (projectId: ProjectId, eventId: string): Promise<DeliveryDoc | undefined> =>
    (await store.deliveries.listByEvents(projectId, [eventId]))[0];
  const finalDelivery = (projectId: ProjectId, eventId: string, status: string) =>
    waitFor(
      `delivery ${status}`,
      async () => {
        const d = await deliveryOf(projectId, eventId);
        return d?.status === status ? d : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 200 },
    );
  const gaps = (rec: Receiver) =>
    rec.requests.slice(1).map((r, i) => r.receivedAt - rec.requests[i].receivedAt);

  it('linear: waits the subscription duration between attempts and fails after retry_count retries', async () => {
    const s = await setup({
      receiver: { respond: () => ({ status: 500 }) },
      subscription: { retry_config: { type: 'linear', duration: 1, retry_count: 2 } },
    });
    const [eventId] = await s.publish();
    const d = await finalDelivery(s.projectId, eventId, 'Failure');
    expect(d.attempts_made).toBe(3);
    expect(s.rec.requests).toHaveLength(3);
    for (const gap of gaps(s.rec)) {
      expect(gap).toBeGreaterThanOrEqual(950);
      expect(gap).toBeLessThan(1000 + SLACK_MS);
    }
  });

  it('a retry fired again (a retry-scheduler restart) after its attempt makes no early attempt', async () => {
    const s = await setup({
      receiver: { respond: () => ({ status: 500 }) },
      subscription: { retry_config: { type: 'linear', duration: 2, retry_count: 2 } },
    });
    const [eventId] = await s.publish();
    const first = await waitFor('the first retry scheduled', async () => {
      const d = await deliveryOf(s.projectId, eventId);
      return d?.attempts_made === 1 && d.next_attempt_at ? d : undefined;
    });
    await waitFor(
      'the second attempt recorded',
      async () => (await deliveryOf(s.projectId, eventId))?.attempts_made === 2,
    );
    // The first retry's fire again, as a restarted scheduler re-reads its uncommitted messages.
    await (
      await bus.connectPublisher()
    ).publish('deliveries', [
      {
        delivery_id: first._id,
        project_id: s.projectId,
        endpoint_id: first.endpoint_id,
        event_id: eventId,
        reason: 'retry',
        due_at: (first.next_attempt_at as Date).toISOString(),
      },
    ]);
    const d = await finalDelivery(s.projectId, eventId, 'Failure');
    expect(d.attempts_made).toBe(3);
    expect(s.rec.requests).toHaveLength(3);
    expect(gaps(s.rec)[1]).toBeGreaterThanOrEqual(1950); // on the schedule, not at the copy's arrival
  });

  it('exponential: doubles the wait (with at most 10 % jitter) up to max_retry_seconds', async () => {
    const s = await setup({
      receiver: { respond: () => ({ status: 502 }) },
      subscription: {
        retry_config: { type: 'exponential', duration: 1, retry_count: 4, max_retry_seconds: 2 },
      },
    });
    const [eventId] = await s.publish();
    const d = await finalDelivery(s.projectId, eventId, 'Failure');
    // The three failed retries in between were appended beside the delivery (libs/store
    // fold-retry-outcomes.ts): the delivery reads with all five attempts, in order, and its
    // retries ended at retry_count.
    expect(d).toMatchObject({ attempts_made: 5, retries_used: 4, next_attempt_at: null });
    expect(d.attempts.map((a) => a.http_status)).toEqual([502, 502, 502, 502, 502]);
    expect(s.rec.requests).toHaveLength(5);
    // Uncapped, the fourth wait would be 8 s or more (a retry is never early): well above the
    // 2 s + SLACK_MS bound, which the cap keeps it under.
    const [g1, g2, g3, g4] = gaps(s.rec);
    expect(g1).toBeGreaterThanOrEqual(950);
    expect(g1).toBeLessThan(1100 + SLACK_MS);
    for (const g of [g2, g3, g4]) {
      expect(g).toBeGreaterThanOrEqual(1950);
      expect(g).toBeLessThan(2000 + SLACK_MS);
    }
  });

  it('honours a longer Retry-After on 503, then succeeds', async () => {
    const s = await setup({
      receiver: {
        respond: (_r, i) => (i === 0 ? { status: 503, headers: { 'Retry-After': '3' } } : { status: 200 }),
      },
    });
    const [eventId] = await s.publish();
    await finalDelivery(s.projectId, eventId, 'Success');
    expect(gaps(s.rec)[0]).toBeGreaterThanOrEqual(2950);
  });

  it('at_most_once: a request that reached the endpoint is never sent again', async () => {
    const s = await setup({
      receiver: { respond: () => ({ status: 500 }) },
      subscription: { delivery_mode: 'at_most_once' },
    });
    const [eventId] = await s.publish();
    const d = await finalDelivery(s.projectId, eventId, 'Failure');
    await new Promise((r) => setTimeout(r, 2000));
    expect(s.rec.requests).toHaveLength(1);
    expect(d.status_reason).toContain('at_most_once');
  });

  it('rate limit: never more than rate_limit per rate_limit_duration; held deliveries spend no retry', async () => {
    const s = await setup({ endpoint: { rate_limit: 2, rate_limit_duration: 2 } });
    const ids = await s.publish(6);
    for (const id of ids) await finalDelivery(s.projectId, id, 'Success');
    const times = s.rec.requests.map((r) => r.receivedAt);
    expect(times).toHaveLength(6);
    // Times of arrival, not of sending: on a busy host a request's way to the receiver varies by
    // more than the limiter's 50 ms margin for it (rate-limiter.spec checks the window exactly).
    // A limiter a slot over sends a third request at once, one with a 1 s window after ~1 s.
    const spanMs = 2000 - 500;
    for (const t of times)
      expect(times.filter((u) => u >= t && u < t + spanMs).length).toBeLessThanOrEqual(2);
    const docs = await store.deliveries.listByEvents(s.projectId, ids);
    expect(docs.map((d) => d.retries_used)).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('circuit breaker: opens after consecutive failures, holds deliveries, probes, and a good probe closes it', async () => {
    const s = await setup({
      receiver: { respond: (_r, i) => ({ status: i < 3 ? 500 : 200 }) },
      project: {
        strategy: { type: 'linear', duration: 1, retry_count: 10 },
        circuit_breaker: { consecutive_failures: 3, probe_interval_seconds: 4 },
      },
    });
    const [eventId] = await s.publish();
    await waitFor('three failures', () => s.rec.requests.length >= 3, { timeoutMs: 20_000 });
    const endpointNow = () => store.endpoints.findById(s.projectId, s.endpoint._id);
    // the API shows the open breaker and why, while the dispatcher holds deliveries
    const open = await waitFor('breaker shown open', async () => {
      const e = await endpointNow();
      return e?.circuit_breaker?.state === 'open' ? e.circuit_breaker : undefined;
    });
    expect(open.reason).toBe('3 consecutive failures');
    const [later] = await s.publish();
    await finalDelivery(s.projectId, eventId, 'Success');
    await finalDelivery(s.projectId, later, 'Success');
    // after the 3rd failure the breaker opened: nothing went out until the probe, ~4 s later
    expect(s.rec.requests[3].receivedAt - s.rec.requests[2].receivedAt).toBeGreaterThanOrEqual(3900);
    const held = await deliveryOf(s.projectId, later);
    expect(held?.retries_used).toBe(0);
    await waitFor('breaker shown closed after the good probe', async () => {
      const e = await endpointNow();
      return e?.circuit_breaker?.state === 'closed' || undefined;
    });
    const ep = await waitFor('failure_rate written', async () => {
      const e = await store.endpoints.findById(s.projectId, s.endpoint._id);
      return e && e.failure_rate > 0 ? e : undefined;
    });
    expect(ep.failure_rate).toBeLessThanOrEqual(100);
  });

  it('failure_rate: 3 failures then a successful resend shows 75 soon after the resend, not a stale 100', async () => {
    const s = await setup({
      receiver: { respond: (_r, i) => ({ status: i < 3 ? 500 : 200 }) },
      project: { strategy: { type: 'linear', duration: 1, retry_count: 2 } },
    });
    const [eventId] = await s.publish();
    const failedOnce = await finalDelivery(s.projectId, eventId, 'Failure');
    expect(failedOnce.attempts_made).toBe(3);
    await waitFor('failure_rate 100 written', async () =>
      (await store.endpoints.findById(s.projectId, s.endpoint._id))?.failure_rate === 100 ? true : undefined,
    );
    const publisher = await bus.connectPublisher();
    expect((await resendDelivery({ store, publisher }, s.projectId, failedOnce._id, 'resend')).kind).toBe(
      'resent',
    );
    await finalDelivery(s.projectId, eventId, 'Success');
    const t0 = Date.now();
    // the turn to success is written at once, not at the next 10 s write or the next attempt
    await waitFor(
      'failure_rate 75 after the resend',
      async () =>
        (await store.endpoints.findById(s.projectId, s.endpoint._id))?.failure_rate === 75 ? true : undefined,
      { timeoutMs: 5_000, intervalMs: 100 },
    );
    expect(Date.now() - t0).toBeLessThan(5_000);
  });

  it('HTTP 410 makes the endpoint inactive, emits endpoint.disabled and notifies by e-mail and Slack', async () => {
    const slack = await receiver();
    const s = await setup({
      receiver: { respond: () => ({ status: 410 }) },
      endpoint: { support_email: 'ops@customer.example', slack_webhook_url: `${slack.url}/slack` },
    });
    await s.publish();
    const disabled = await waitFor('endpoint inactive', async () => {
      const e = await store.endpoints.findById(s.projectId, s.endpoint._id);
      return e?.status === 'inactive' ? e : undefined;
    });
    expect(disabled.status_reason).toBe('disabled: the endpoint answered 410 Gone');
    const m = await waitFor('endpoint.disabled meta event', () =>
      meta.find((x) => x.project_id === s.projectId && x.event_type === 'endpoint.disabled'),
    );
    expect(m.data).toMatchObject({ uid: s.endpoint._id, reason: expect.stringContaining('410') });
    await waitFor('slack notice', () => slack.requests.length > 0);
    expect(JSON.parse(slack.requests[0].body).text).toContain('was disabled');
    await waitFor('e-mail', () => mails.some((x) => x.includes('ops@customer.example') && x.includes('410')));
    // a new delivery for the inactive endpoint is Discarded, nothing sent
    const before = s.rec.requests.length;
    const [next] = await s.publish();
    await finalDelivery(s.projectId, next, 'Discarded');
    expect(s.rec.requests).toHaveLength(before);
  });

  it('disable_endpoint: a breaker open past disable_after_seconds makes the endpoint inactive', async () => {
    const s = await setup({
      receiver: { respond: () => ({ status: 500 }) },
      project: {
        disable_endpoint: true,
        strategy: { type: 'linear', duration: 1, retry_count: 20 },
        circuit_breaker: { consecutive_failures: 2, probe_interval_seconds: 1, disable_after_seconds: 2 },
      },
    });
    await s.publish();
    await waitFor(
      'endpoint inactive',
      async () => (await store.endpoints.findById(s.projectId, s.endpoint._id))?.status === 'inactive',
      { timeoutMs: 30_000, intervalMs: 250 },
    );
    await waitFor('endpoint.disabled meta event', () =>
      meta.find((x) => x.project_id === s.projectId && x.event_type === 'endpoint.disabled'),
    );
  });

  it('alert_config: count failures within threshold send an endpoint.alert meta event and a Slack alert', async () => {
    const slack = await receiver();
    const s = await setup({
      receiver: { respond: () => ({ status: 500 }) },
      endpoint: { slack_webhook_url: slack.url },
      subscription: { alert_config: { count: 2, threshold: '1m' } },
    });
    await s.publish();
    const m = await waitFor('endpoint.alert', () =>
      meta.find((x) => x.project_id === s.projectId && x.event_type === 'endpoint.alert'),
    );
    expect(m.data).toMatchObject({ endpoint_id: s.endpoint._id, failures: 2, threshold: '1m' });
    await waitFor('slack alert', () => slack.requests.some((r) => r.body.includes('failed within 1m')));
  });

  it('a paused endpoint holds deliveries without spending attempts; activation releases them at once', async () => {
    const s = await setup({ endpoint: { status: 'paused' } });
    const [eventId] = await s.publish();
    const d = await waitFor('held', async () => {
      const x = await deliveryOf(s.projectId, eventId);
      return x?.status_reason?.startsWith('held') ? x : undefined;
    });
    expect(d).toMatchObject({ status: 'Scheduled', attempts_made: 0, retries_used: 0 });
    expect(s.rec.requests).toHaveLength(0);
    // what the gateway's activate does: status, configuration barrier, config change, then release
    await store.endpoints.update(s.projectId, s.endpoint._id, { status: 'active' });
    await bus.announceConfigChange(s.projectId);
    const publisher = await bus.connectPublisher();
    await publisher.publish('config', [
      { project_id: s.projectId, resource: 'endpoint', id: s.endpoint._id, op: 'updated' },
    ]);
    const t0 = Date.now();
    expect(await releaseHeldDeliveries({ store, publisher }, s.projectId, s.endpoint._id)).toBe(1);
    const done = await finalDelivery(s.projectId, eventId, 'Success');
    expect(Date.now() - t0).toBeLessThan(15_000); // well before the 30 s re-check
    expect(done).toMatchObject({ attempts_made: 1, retries_used: 0 });
  });
});
