import amqp from 'amqplib';
import {
  CreateQueueCommand,
  DeleteMessageCommand,
  DeleteQueueCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { PubSub, type Message as PubSubMessage, type Subscription } from '@google-cloud/pubsub';
import { Kafka, logLevel, type Consumer } from 'kafkajs';
import type { EndpointDoc, EndpointType } from '@hookrail/store';
import { createTopicsWithLeaders, sparePort, TEST_BROKERS } from '@hookrail/testkit';

/** A message as the test reads it back from the broker: its body and headers/attributes. */
export interface Received {
  body: string;
  headers: Record<string, string>;
  key?: string;
}

/**
 * One broker kind on its local server (the destination tests and bench/broker-destinations.bench.ts): the destination settings, a reader of what arrived, and an
 * outage that is honest for the kind without stopping the shared server.
 */
export interface DestinationKind {
  destination: Record<string, unknown>;
  /** Everything published since the last call. */
  drain(): Promise<Received[]>;
  /** How many messages arrived so far (cheaper than drain, for the bench). */
  count(): Promise<number>;
  /** The broker refuses publishes (what `down` changes, `up` undoes). */
  down(): Promise<Partial<EndpointDoc> | void>;
  up(): Promise<Partial<EndpointDoc> | void>;
  close(): Promise<void>;
}

export const lowerKeys = (h: Record<string, string>) =>
  Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));

/**
 * Kafka: down is the endpoint pointed at a loopback port nothing listens on (a spare one, which no
 * other test binds meanwhile), up is the real one.
 */
async function kafkaKind(name: string): Promise<DestinationKind> {
  const kafka = new Kafka({
    clientId: 'tests',
    brokers: TEST_BROKERS.kafkaBrokers,
    logLevel: logLevel.NOTHING,
  });
  const admin = kafka.admin();
  await admin.connect();
  await createTopicsWithLeaders(admin, [{ topic: name, numPartitions: 3 }]);
  const got: Received[] = [];
  let arrived = 0;
  const consumer: Consumer = kafka.consumer({ groupId: `${name}-reader`, maxWaitTimeInMs: 100 });
  await consumer.connect();
  await consumer.subscribe({ topic: name, fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ message }) => {
      arrived++;
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
    count: async () => arrived,
    down: async () => ({ destination: { ...destination, brokers: [`127.0.0.1:${await sparePort()}`] } }),
    up: async () => ({ destination }),
    async close() {
      await consumer.disconnect();
      await admin.deleteTopics({ topics: [name] }).catch(() => undefined);
      await admin.disconnect();
    },
  };
}

/** AMQP: down is the queue deleted (a mandatory publish is returned unrouted), up is it declared again. */
async function amqpKind(name: string): Promise<DestinationKind> {
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
    count: async () => (await ch.checkQueue(name)).messageCount,
    down: async () => void (await ch.deleteQueue(name)),
    up: async () => void (await ch.assertQueue(name, { durable: true })),
    async close() {
      await ch.deleteQueue(name).catch(() => undefined);
      await conn.close().catch(() => undefined);
    },
  };
}

/** SQS (ElasticMQ): down is the queue deleted, up is it created again. */
async function sqsKind(name: string): Promise<DestinationKind> {
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
    async count() {
      const { Attributes } = await client.send(
        new GetQueueAttributesCommand({
          QueueUrl: url,
          AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
        }),
      );
      return (
        Number(Attributes?.ApproximateNumberOfMessages ?? 0) +
        Number(Attributes?.ApproximateNumberOfMessagesNotVisible ?? 0)
      );
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
async function pubsubKind(name: string): Promise<DestinationKind> {
  const client = new PubSub({
    projectId: TEST_BROKERS.pubsubProject,
    apiEndpoint: TEST_BROKERS.pubsubEmulatorHost,
    emulatorMode: true,
  });
  const got: Received[] = [];
  const subs: Subscription[] = [];
  let arrived = 0;
  let generation = 0;
  const listen = async () => {
    const [topic] = await client.createTopic(name);
    const [sub] = await topic.createSubscription(`${name}-${generation++}`);
    sub.on('message', (m: PubSubMessage) => {
      arrived++;
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
    count: async () => arrived,
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

export const DESTINATION_KINDS: [EndpointType, (name: string) => Promise<DestinationKind>][] = [
  ['kafka', kafkaKind],
  ['amqp', amqpKind],
  ['sqs', sqsKind],
  ['google_pubsub', pubsubKind],
];
