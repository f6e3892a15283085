import { createHmac } from 'node:crypto';
import net, { type AddressInfo } from 'node:net';
import amqp from 'amqplib';
import {
  CreateQueueCommand,
  DeleteMessageCommand,
  DeleteQueueCommand,
  ReceiveMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { PubSub, type Message as PubSubMessage, type Subscription } from '@google-cloud/pubsub';
import { Kafka, logLevel, type Consumer } from 'kafkajs';
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
import { definition as retrySchedulerDefinition } from '../../retry-scheduler/src/service';
import { definition } from './service';

jest.setTimeout(180_000);

const SECRET = 'whsec_' + Buffer.from('destination-signing-key-0123456').toString('base64');

/** A message as the test reads it back from the broker: its body and headers/attributes. */
interface Received {
  body: string;
  headers: Record<string, string>;
  key?: string;
}

/**
 * One broker kind on its local server: the destination settings, a reader of what arrived, and an
 * outage that is honest for the kind without stopping the shared server.
 */
interface Kind {
  destination: Record<string, unknown>;
  /** Everything published since the last call. */
  drain(): Promise<Received[]>;
  /** The broker refuses publishes (what `down` changes, `up` undoes). */
  down(): Promise<Partial<EndpointDoc> | void>;
  up(): Promise<Partial<EndpointDoc> | void>;
  close(): Promise<void>;
}

const lowerKeys = (h: Record<string, string>) =>
  Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));

const closedPort = async (): Promise<number> => {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
};

/** Kafka: down is the endpoint pointed at a closed loopback port (broker unreachable), up is the real one. */
async function kafkaKind(name: string): Promise<Kind> {
  const kafka = new Kafka({
    clientId: 'tests',
    brokers: TEST_BROKERS.kafkaBrokers,
    logLevel: logLevel.NOTHING,
  });
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: name, numPartitions: 3 }], waitForLeaders: true });
  const got: Received[] = [];
  const consumer: Consumer = kafka.consumer({ groupId: `${name}-reader`, maxWaitTimeInMs: 100 });
  await consumer.connect();
  await consumer.subscribe({ topic: name, fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ message }) => {
      got.push({
        body: message.value!.toString(),
        key: message.key?.toString(),
        headers: Object.fromEntries(Object.entries(message.headers ?? {}).map(([k, v]) => [k, String(v)])),
      });
    },
  });
  const destination = { brokers: TEST_BROKERS.kafkaBrokers, topic_name: name };
  return {
    destination,
    drain: async () => got.splice(0),
    down: async () => ({ destination: { ...destination, brokers: [`127.0.0.1:${await closedPort()}`] } }),
    up: async () => ({ destination }),
    async close() {
      await consumer.disconnect();
      await admin.deleteTopics({ topics: [name] }).catch(() => undefined);
      await admin.disconnect();
    },
  };
}

/** AMQP: down is the queue deleted (a mandatory publish is returned unrouted), up is it declared again. */
async function amqpKind(name: string): Promise<Kind> {
  const conn = await amqp.connect(
    `amqp://${TEST_BROKERS.amqpUser}:${TEST_BROKERS.amqpPassword}@${TEST_BROKERS.amqpHost}:${TEST_BROKERS.amqpPort}`,
  );
  const ch = await conn.createChannel();
  await ch.assertQueue(name, { durable: true });
  return {
    destination: {
      host: TEST_BROKERS.amqpHost,
      port: TEST_BROKERS.amqpPort,
      auth: { user: TEST_BROKERS.amqpUser, password: TEST_BROKERS.amqpPassword },
      queue: name,
    },
    async drain() {
      const out: Received[] = [];
      for (let m = await ch.get(name, { noAck: true }); m; m = await ch.get(name, { noAck: true }))
        out.push({
          body: m.content.toString(),
          headers: Object.fromEntries(
            Object.entries(m.properties.headers ?? {}).map(([k, v]) => [k, String(v)]),
          ),
        });
      return out;
    },
    down: async () => void (await ch.deleteQueue(name)),
    up: async () => void (await ch.assertQueue(name, { durable: true })),
    async close() {
      await ch.deleteQueue(name).catch(() => undefined);
      await conn.close().catch(() => undefined);
    },
  };
}

/** SQS (ElasticMQ): down is the queue deleted, up is it created again. */
async function sqsKind(name: string): Promise<Kind> {
  const client = new SQSClient({
    endpoint: TEST_BROKERS.sqsEndpoint,
    region: TEST_BROKERS.sqsRegion,
    credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
  });
  const create = async () => (await client.send(new CreateQueueCommand({ QueueName: name }))).QueueUrl!;
  let url = await create();
  return {
    destination: {
      access_key_id: 'x',
      secret_key: 'x',
      default_region: TEST_BROKERS.sqsRegion,
      queue_name: name,
    },
    async drain() {
      const out: Received[] = [];
      for (;;) {
        const r = await client.send(
          new ReceiveMessageCommand({
            QueueUrl: url,
            MaxNumberOfMessages: 10,
            MessageAttributeNames: ['All'],
            WaitTimeSeconds: 0,
          }),
        );
        if (!r.Messages?.length) return out;
        for (const m of r.Messages) {
          out.push({
            body: m.Body!,
            headers: Object.fromEntries(
              Object.entries(m.MessageAttributes ?? {}).map(([k, v]) => [k, v.StringValue ?? '']),
            ),
          });
          await client.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: m.ReceiptHandle }));
        }
      }
    },
    down: async () => void (await client.send(new DeleteQueueCommand({ QueueUrl: url }))),
    up: async () => void (url = await create()),
    async close() {
      await client.send(new DeleteQueueCommand({ QueueUrl: url })).catch(() => undefined);
      client.destroy();
    },
  };
}

/** Pub/Sub (emulator): down is the topic deleted, up is it created again with a new subscription. */
async function pubsubKind(name: string): Promise<Kind> {
  const client = new PubSub({
    projectId: TEST_BROKERS.pubsubProject,
    apiEndpoint: TEST_BROKERS.pubsubEmulatorHost,
    emulatorMode: true,
  });
  const got: Received[] = [];
  const subs: Subscription[] = [];
  let generation = 0;
  const listen = async () => {
    const [topic] = await client.createTopic(name);
    const [sub] = await topic.createSubscription(`${name}-${generation++}`);
    sub.on('message', (m: PubSubMessage) => {
      got.push({ body: m.data.toString(), headers: { ...m.attributes }, key: m.orderingKey });
      m.ack();
    });
    sub.on('error', () => undefined);
    subs.push(sub);
  };
  await listen();
  return {
    destination: { project_id: TEST_BROKERS.pubsubProject, topic_id: name, message_ordering: true },
    drain: async () => got.splice(0),
    down: async () => void (await client.topic(name).delete()),
    up: listen,
    async close() {
      for (const s of subs) await s.close().catch(() => undefined);
      await client
        .topic(name)
        .delete()
        .catch(() => undefined);
      await client.close();
    },
  };
}

const KINDS: [EndpointType, (name: string) => Promise<Kind>][] = [
  ['kafka', kafkaKind],
  ['amqp', amqpKind],
  ['sqs', sqsKind],
  ['google_pubsub', pubsubKind],
];

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

  it('settings that cannot work are an attempt that was not sent (no broker is asked)', async () => {
    const s = await setup('kafka', { topic_name: 'no-brokers' });
    const [m] = await s.publish(1);
    const [d] = await allWith(s.projectId, [m.event_id], (x) => x.attempts_made >= 1, 'attempt recorded');
    expect(d.attempts[0].error).toContain('destination.brokers is required');
  });
});
