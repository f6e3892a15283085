import amqp from 'amqplib';
import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  SendMessageBatchCommand,
  SQSClient,
  type MessageAttributeValue,
} from '@aws-sdk/client-sqs';
import { PubSub } from '@google-cloud/pubsub';
import { Kafka, logLevel, type Admin, type ITopicConfig } from 'kafkajs';
import { TEST_KAFKA_BROKERS } from './stack';
import { waitFor } from './wait-for';

/** The local servers' broker addresses (deploy/local/servers.sh), overridable for CI. */
export const TEST_BROKERS = {
  amqpHost: process.env.HOOKRAIL_TEST_AMQP_HOST ?? '127.0.0.1',
  amqpPort: process.env.HOOKRAIL_TEST_AMQP_PORT ?? '5672',
  amqpUser: 'guest',
  amqpPassword: 'guest',
  sqsEndpoint: process.env.HOOKRAIL_TEST_SQS_ENDPOINT ?? 'http://127.0.0.1:9324',
  sqsRegion: 'us-east-1',
  pubsubEmulatorHost: process.env.HOOKRAIL_TEST_PUBSUB_EMULATOR_HOST ?? '127.0.0.1:8085',
  pubsubProject: 'hookrail-test',
  kafkaBrokers: TEST_KAFKA_BROKERS,
};

const amqpUrl = () =>
  `amqp://${TEST_BROKERS.amqpUser}:${TEST_BROKERS.amqpPassword}@${TEST_BROKERS.amqpHost}:${TEST_BROKERS.amqpPort}`;

export type TestHeaders = Record<string, string>;

/**
 * A durable queue (optionally with a fanout dead-letter exchange bound to `<queue>.dead`, set as
 * the queue's `x-dead-letter-exchange` unless `queueArgument` is false, and with a direct exchange
 * `exchange` to bind it to).
 */
export async function amqpQueue(
  queue: string,
  opts: { deadLetterExchange?: string; queueArgument?: boolean; exchange?: string } = {},
) {
  const conn = await amqp.connect(amqpUrl());
  const ch = await conn.createConfirmChannel();
  if (opts.exchange) await ch.assertExchange(opts.exchange, 'direct', { durable: false });
  if (opts.deadLetterExchange) {
    await ch.assertExchange(opts.deadLetterExchange, 'fanout', { durable: false, autoDelete: false });
    await ch.assertQueue(`${queue}.dead`, { durable: false });
    await ch.bindQueue(`${queue}.dead`, opts.deadLetterExchange, '');
  }
  await ch.assertQueue(queue, {
    durable: true,
    ...(opts.deadLetterExchange && opts.queueArgument !== false
      ? { deadLetterExchange: opts.deadLetterExchange }
      : {}),
  });
  return {
    async publish(bodies: (string | object)[], headers: TestHeaders = {}) {
      for (const b of bodies)
        ch.sendToQueue(queue, Buffer.from(typeof b === 'string' ? b : JSON.stringify(b)), {
          persistent: true,
          headers,
        });
      await ch.waitForConfirms();
    },
    async count(name = queue) {
      return (await ch.checkQueue(name)).messageCount;
    },
    /** Takes one message off `<queue>.dead` (acknowledged), or undefined when it is empty. */
    async takeDead() {
      const m = await ch.get(`${queue}.dead`, { noAck: true });
      return m
        ? { body: m.content.toString(), headers: (m.properties.headers ?? {}) as Record<string, unknown> }
        : undefined;
    },
    async close() {
      await ch.deleteQueue(queue).catch(() => undefined);
      await ch.deleteQueue(`${queue}.dead`).catch(() => undefined);
      if (opts.deadLetterExchange) await ch.deleteExchange(opts.deadLetterExchange).catch(() => undefined);
      if (opts.exchange) await ch.deleteExchange(opts.exchange).catch(() => undefined);
      await conn.close().catch(() => undefined);
    },
  };
}

/** An SQS queue (optionally with a redrive policy to `<queue>-dead` after `maxReceiveCount`). */
export async function sqsQueue(queueName: string, opts: { endpoint?: string; deadLetter?: boolean } = {}) {
  const client = new SQSClient({
    endpoint: opts.endpoint ?? TEST_BROKERS.sqsEndpoint,
    region: TEST_BROKERS.sqsRegion,
    credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
  });
  let attributes: Record<string, string> = {};
  let deadUrl: string | undefined;
  if (opts.deadLetter) {
    deadUrl = (await client.send(new CreateQueueCommand({ QueueName: `${queueName}-dead` }))).QueueUrl!;
    const arn = (
      await client.send(new GetQueueAttributesCommand({ QueueUrl: deadUrl, AttributeNames: ['QueueArn'] }))
    ).Attributes!.QueueArn!;
    attributes = { RedrivePolicy: JSON.stringify({ deadLetterTargetArn: arn, maxReceiveCount: '2' }) };
  }
  const url = (await client.send(new CreateQueueCommand({ QueueName: queueName, Attributes: attributes })))
    .QueueUrl!;
  const count = async (u: string) =>
    Number(
      (
        await client.send(
          new GetQueueAttributesCommand({
            QueueUrl: u,
            AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
          }),
        )
      ).Attributes?.ApproximateNumberOfMessages ?? 0,
    );
  return {
    url,
    async publish(bodies: (string | object)[], headers: TestHeaders = {}) {
      const attrs: Record<string, MessageAttributeValue> = Object.fromEntries(
        Object.entries(headers).map(([k, v]) => [k, { DataType: 'String', StringValue: v }]),
      );
      for (let i = 0; i < bodies.length; i += 10)
        await client.send(
          new SendMessageBatchCommand({
            QueueUrl: url,
            Entries: bodies.slice(i, i + 10).map((b, j) => ({
              Id: String(j),
              MessageBody: typeof b === 'string' ? b : JSON.stringify(b),
              MessageAttributes: attrs,
            })),
          }),
        );
    },
    count: () => count(url),
    deadCount: () => (deadUrl ? count(deadUrl) : Promise.resolve(0)),
    async exists() {
      return client.send(new GetQueueUrlCommand({ QueueName: queueName })).then(
        () => true,
        () => false,
      );
    },
    close: async () => client.destroy(),
  };
}

/** A topic and subscription on the Pub/Sub emulator (optionally with a dead-letter topic). */
export async function pubsubSubscription(name: string, opts: { deadLetter?: boolean } = {}) {
  const client = new PubSub({
    projectId: TEST_BROKERS.pubsubProject,
    apiEndpoint: TEST_BROKERS.pubsubEmulatorHost,
    emulatorMode: true,
  });
  const [topic] = await client.createTopic(name);
  let dead: { pull(): Promise<number>; close(): Promise<void> } | undefined;
  let deadLetterPolicy;
  if (opts.deadLetter) {
    const [deadTopic] = await client.createTopic(`${name}-dead`);
    const [deadSub] = await deadTopic.createSubscription(`${name}-dead`);
    deadLetterPolicy = { deadLetterTopic: deadTopic.name, maxDeliveryAttempts: 5 };
    const got: string[] = [];
    deadSub.on('message', (m: { data: Buffer; ack(): void }) => {
      got.push(m.data.toString());
      m.ack();
    });
    // A streaming pull reconnects on its own; without a listener, an error after the test would
    // crash the next test file in this worker.
    deadSub.on('error', () => undefined);
    dead = { pull: async () => got.length, close: () => deadSub.close() };
  }
  await topic.createSubscription(name, {
    ackDeadlineSeconds: 10,
    ...(deadLetterPolicy ? { deadLetterPolicy } : {}),
  });
  return {
    subscriptionId: name,
    async publish(bodies: (string | object)[], headers: TestHeaders = {}) {
      await Promise.all(
        bodies.map((b) =>
          topic.publishMessage({
            data: Buffer.from(typeof b === 'string' ? b : JSON.stringify(b)),
            attributes: headers,
          }),
        ),
      );
    },
    deadCount: () => dead?.pull() ?? Promise.resolve(0),
    async close() {
      await dead?.close();
      await client.close();
    },
  };
}

/**
 * Creates topics and waits until every partition has a leader. kafkajs' own `waitForLeaders`
 * retries "leader not available" only: on a busy broker a new topic can first be unknown to the
 * metadata it asks ("does not host this topic-partition"), and the create fails (it failed CI).
 */
export async function createTopicsWithLeaders(admin: Admin, topics: ITopicConfig[]): Promise<void> {
  await admin.createTopics({ topics, waitForLeaders: false });
  const names = topics.map((t) => t.topic);
  await waitFor(
    `topics ${names.join(', ')} with a leader on each partition`,
    async () => {
      const found = (await admin.fetchTopicMetadata({ topics: names })).topics;
      return topics.every((want) => {
        const t = found.find((f) => f.name === want.topic);
        return t?.partitions.length === (want.numPartitions ?? 1) && t.partitions.every((p) => p.leader >= 0);
      });
    },
    { timeoutMs: 30_000, intervalMs: 100 },
  );
}

/**
 * Deletes topics and waits until the broker's metadata no longer lists them. Deletion is
 * asynchronous: until the broker applies it, a produce with cached metadata still lands on the
 * old topic (seen in CI: a request answered 201 "during" an outage, its event deleted with it).
 */
export async function deleteTopicsGone(admin: Admin, topics: string[]): Promise<void> {
  await admin.deleteTopics({ topics });
  await waitFor(
    `topics ${topics.join(', ')} deleted`,
    async () => {
      const listed = await admin.listTopics();
      return topics.every((t) => !listed.includes(t));
    },
    { timeoutMs: 20_000, intervalMs: 100 },
  );
}

/** A topic on the local Kafka (or on `brokers`) for a kafka broker source. */
export async function kafkaTopic(topic: string, opts: { brokers?: string[] } = {}) {
  const kafka = new Kafka({
    clientId: 'tests',
    brokers: opts.brokers ?? TEST_BROKERS.kafkaBrokers,
    logLevel: logLevel.NOTHING,
  });
  const admin = kafka.admin();
  await admin.connect();
  await createTopicsWithLeaders(admin, [{ topic, numPartitions: 3 }]);
  const producer = kafka.producer();
  await producer.connect();
  return {
    async publish(bodies: (string | object)[], headers: TestHeaders = {}) {
      await producer.send({
        topic,
        acks: -1,
        messages: bodies.map((b, i) => ({
          key: String(i),
          value: typeof b === 'string' ? b : JSON.stringify(b),
          headers,
        })),
      });
    },
    async close() {
      await producer.disconnect();
      await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
      await admin.disconnect();
    },
  };
}
