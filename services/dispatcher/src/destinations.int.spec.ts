import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { newId, type ProjectId } from '@hookrail/domain';
import type { MetaMessage } from '@hookrail/bus';
import type { RunningService } from '@hookrail/runtime';
import type { DeliveryDoc, EndpointDoc, EndpointType, Store } from '@hookrail/store';
import {
  connectTestStore,
  eventMessage,
  makeEndpoint,
  makeProject,
  makeSubscription,
  startTestService,
  testBus,
  testConfig,
  TEST_BROKERS,
  uniquePrefix,
  waitFor,
} from '@hookrail/testkit';
import { resendDelivery } from '@hookrail/operations';
import { definition as retrySchedulerDefinition } from '../../retry-scheduler/src/service';
import { definition } from './service';
import { DESTINATION_KINDS, lowerKeys, type Received } from './testing/destination-kinds';

jest.setTimeout(180_000);

const KINDS = DESTINATION_KINDS;
const SECRET = 'whsec_' + Buffer.from('destination-signing-key-0123456').toString('base64');

describe('broker destinations on the local servers', () => {
  const prefix = uniquePrefix('dest');
  const bus = testBus(prefix);
  const services: RunningService[] = [];
  const meta: MetaMessage[] = [];
  let store: Store;

  beforeAll(async () => {
    store = await connectTestStore();
    const env = {
      HOOKRAIL_KAFKA_TOPIC_PREFIX: prefix,
      HOOKRAIL_SQS_ENDPOINT: TEST_BROKERS.sqsEndpoint,
      PUBSUB_EMULATOR_HOST: TEST_BROKERS.pubsubEmulatorHost,
    };
    services.push(
      await startTestService(definition(testConfig('dispatcher', env))),
      await startTestService(retrySchedulerDefinition(testConfig('retry-scheduler', env))),
    );
    await bus.consume('test-meta', { topic: 'meta', handle: async (m) => void meta.push(m) });
  });
  afterAll(async () => {
    await Promise.all(services.map((s) => s.stop()));
    await bus.close();
    await store?.close();
  });

  const setup = async (type: EndpointType, destination: Record<string, unknown>, project = {}) => {
    const projectId = await makeProject(store, {
      signature: {
        header: 'X-Hookrail-Signature',
        versions: [{ hash: 'SHA256', encoding: 'hex' }],
        standard_webhooks: true,
      },
      strategy: { type: 'linear', duration: 1, retry_count: 30 },
      ...project,
    });
    const now = new Date();
    const endpoint = await makeEndpoint(store, projectId, {
      url: '',
      type,
      destination,
      http_timeout: 5,
      secrets: [
        { uid: newId(), value: SECRET, created_at: now, updated_at: now, deleted_at: null, expires_at: null },
      ],
    });
    const sourceId = newId();
    await makeSubscription(store, projectId, { endpoint_id: endpoint._id, source_id: sourceId });
    const publish = async (n: number) => {
      const ms = Array.from({ length: n }, (_, i) =>
        eventMessage(projectId, { source_id: sourceId, data: { n: i, id: newId() } }),
      );
      await (await bus.connectPublisher()).publish('events', ms);
      return ms;
    };
    /** What the gateway does on an endpoint update: write, configuration barrier. */
    const change = async (set: Partial<EndpointDoc> | void) => {
      if (!set) return;
      await store.endpoints.update(projectId, endpoint._id, set);
      await bus.announceConfigChange(projectId);
    };
    return { projectId, endpoint, publish, change };
  };
  const deliveries = (projectId: ProjectId, ids: string[]) => store.deliveries.listByEvents(projectId, ids);
  const allWith = (projectId: ProjectId, ids: string[], ok: (d: DeliveryDoc) => boolean, what: string) =>
    waitFor(
      what,
      async () => {
        const ds = await deliveries(projectId, ids);
        return ds.length === ids.length && ds.every(ok) ? ds : undefined;
      },
      { timeoutMs: 90_000, intervalMs: 300 },
    );

  /** Body as sent, X-Hookrail headers, HMAC and Standard Webhooks signatures over the exact bytes. */
  const expectSigned = (m: Received, data: unknown, d: DeliveryDoc) => {
    const h = lowerKeys(m.headers);
    expect(JSON.parse(m.body)).toEqual(data);
    expect(h['x-hookrail-event-id']).toBe(d.event_id);
    expect(h['x-hookrail-delivery-id']).toBe(d._id);
    expect(h['x-hookrail-signature']).toBe(createHmac('sha256', SECRET).update(m.body).digest('hex'));
    expect(new Webhook(SECRET).verify(m.body, h)).toEqual(data);
    expect(h['content-type']).toBeUndefined(); // HTTP framing is not copied into messages
  };

  it.each(KINDS)(
    '%s: delivered with verifiable signature headers; broker down → attempts fail and retry → back → all delivered, none lost',
    async (type, make) => {
      const kind = await make(`${prefix}-${type}`.replace(/[^A-Za-z0-9-]/g, '-'));
      try {
        // the breaker is the next test's subject: here every delivery keeps being attempted
        const s = await setup(type, kind.destination, {
          circuit_breaker: { consecutive_failures: 10_000, min_requests: 10_000 },
        });
        // delivered, acknowledged, signed
        const first = await s.publish(3);
        const ok = await allWith(
          s.projectId,
          first.map((m) => m.event_id),
          (d) => d.status === 'Success',
          'first deliveries acknowledged',
        );
        let received: Received[] = [];
        const got = await waitFor('messages arrived', async () => {
          received = [...received, ...(await kind.drain())];
          return received.length >= 3 ? received : undefined;
        });
        expect(got).toHaveLength(3);
        for (const m of first) {
          const d = ok.find((x) => x.event_id === m.event_id)!;
          const msg = got.find((g) => lowerKeys(g.headers)['x-hookrail-event-id'] === m.event_id)!;
          expectSigned(msg, m.data, d);
          if (msg.key !== undefined) expect(msg.key).toBe(m.event_id);
          expect(d.attempts).toHaveLength(1);
          expect(d.attempts[0]).toMatchObject({ method: 'PUBLISH', http_status: null, error: null });
          expect(d.attempts[0].response_data).not.toBe('');
        }

        // the broker refuses: attempts fail and are retried on the project's schedule
        await s.change(await kind.down());
        const during = await s.publish(10);
        const ids = during.map((m) => m.event_id);
        const failing = await allWith(
          s.projectId,
          ids,
          (d) => d.status === 'Retry' && d.attempts_made >= 2,
          'every delivery failed twice and waits for a retry',
        );
        for (const d of failing) expect(d.attempts[0].error).toBeTruthy();

        // back: every delivery goes out, none lost
        await s.change(await kind.up());
        await allWith(s.projectId, ids, (d) => d.status === 'Success', 'all delivered after the outage');
        const after = await waitFor('messages after the outage', async () => {
          received = [...received, ...(await kind.drain())];
          const seen = new Set(received.map((g) => lowerKeys(g.headers)['x-hookrail-event-id']));
          return ids.every((id) => seen.has(id)) ? received : undefined;
        });
        const seen = new Set(after.map((g) => lowerKeys(g.headers)['x-hookrail-event-id']));
        expect(ids.filter((id) => !seen.has(id))).toEqual([]);
      } finally {
        await kind.close();
      }
    },
  );

  it('retries exhausted: the delivery fails with a meta event; a manual resend publishes it once the broker is back', async () => {
    const kind = await DESTINATION_KINDS.find(([k]) => k === 'amqp')![1](
      `${prefix}-resend`.replace(/[^A-Za-z0-9-]/g, '-'),
    );
    try {
      const s = await setup('amqp', kind.destination, {
        strategy: { type: 'linear', duration: 1, retry_count: 1 },
        circuit_breaker: { consecutive_failures: 10_000, min_requests: 10_000 },
        // published to the meta topic (this test reads it there; nothing is sent to the URL)
        meta_event: {
          is_enabled: true,
          url: 'http://127.0.0.1:9/meta',
          secret: 'meta-secret',
          event_type: [],
        },
      });
      await kind.down();
      const [m] = await s.publish(1);
      const [failed] = await allWith(
        s.projectId,
        [m.event_id],
        (d) => d.status === 'Failure',
        'delivery failed',
      );
      expect(failed.attempts_made).toBe(2);
      expect(failed.attempts.map((a) => a.error)).toEqual([
        expect.stringContaining('NO_ROUTE'),
        expect.stringContaining('NO_ROUTE'),
      ]);
      await waitFor('eventdelivery.failed meta event', () =>
        meta.find(
          (x) => x.event_type === 'eventdelivery.failed' && JSON.stringify(x.data).includes(failed._id),
        ),
      );
      await kind.up();
      const publisher = await bus.connectPublisher();
      expect((await resendDelivery({ store, publisher }, s.projectId, failed._id, 'resend')).kind).toBe(
        'resent',
      );
      const [done] = await allWith(
        s.projectId,
        [m.event_id],
        (d) => d.status === 'Success',
        'resent and published',
      );
      expect(done.attempts.at(-1)).toMatchObject({
        method: 'PUBLISH',
        error: null,
        response_data: failed._id,
      });
      const got = await waitFor('the message', async () => {
        const all = await kind.drain();
        return all.length ? all : undefined;
      });
      expect(got.map((g) => lowerKeys(g.headers)['x-hookrail-delivery-id'])).toEqual([failed._id]);
    } finally {
      await kind.close();
    }
  });

  it('a dead destination trips the circuit breaker like an HTTP endpoint', async () => {
    const s = await setup(
      'sqs',
      {
        access_key_id: 'x',
        secret_key: 'x',
        default_region: TEST_BROKERS.sqsRegion,
        queue_name: `${prefix}-never-created`.replace(/[^A-Za-z0-9-]/g, '-'),
      },
      {
        strategy: { type: 'linear', duration: 1, retry_count: 10 },
        circuit_breaker: { consecutive_failures: 3, probe_interval_seconds: 30 },
      },
    );
    await s.publish(1);
    const open = await waitFor(
      'breaker open',
      async () => {
        const e = await store.endpoints.findById(s.projectId, s.endpoint._id);
        return e?.circuit_breaker?.state === 'open' ? e.circuit_breaker : undefined;
      },
      { timeoutMs: 60_000 },
    );
    expect(open.reason).toMatch(/3 consecutive/);
  });

  it("Hookrail's own topics are never a destination (its events topic on its own cluster)", async () => {
    const s = await setup('kafka', { brokers: TEST_BROKERS.kafkaBrokers, topic_name: `${prefix}.events` });
    const [m] = await s.publish(1);
    const [d] = await allWith(s.projectId, [m.event_id], (x) => x.attempts_made >= 1, 'attempt recorded');
    expect(d.status).not.toBe('Success');
    expect(d.attempts[0].error).toContain("one of Hookrail's own topics");
  });

  it('settings that cannot work are an attempt that was not sent (no broker is asked)', async () => {
    const s = await setup('kafka', { topic_name: 'no-brokers' });
    const [m] = await s.publish(1);
    const [d] = await allWith(s.projectId, [m.event_id], (x) => x.attempts_made >= 1, 'attempt recorded');
    expect(d.attempts[0].error).toContain('destination.brokers is required');
  });
});
