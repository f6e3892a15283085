import { randomBytes } from 'node:crypto';
import {
  amqpQueue,
  gatedProxy,
  kafkaTopic,
  localKafkaLibs,
  PrivateKafka,
  pubsubSubscription,
  TEST_BROKERS,
} from '@hookrail/testkit';
import { BrokerStack, pubSubFor } from './testing/broker-stack';
import { streamThroughOutage } from './testing/outage';

jest.setTimeout(240_000);

const libs = localKafkaLibs();
if (!libs) throw new Error('the local Kafka jars are missing: run `bash deploy/local/provision.sh`');

/**
 * The broker goes away in the middle of a stream of 1,000 messages and comes back; the source
 * shows `unreachable` meanwhile, resumes by itself, and every message arrives. Kafka: a private
 * broker SIGKILLed and restarted on its data. RabbitMQ and Pub/Sub: the connection to the shared
 * server is cut and refused for a while through a proxy (the Debian RabbitMQ runs one node per
 * machine, and the Pub/Sub fake keeps its messages in memory, so restarting either would test the
 * server, not Hookrail). SQS restarts are covered by broker-restart.chaos.spec.ts.
 */
describe('broker outage mid-stream', () => {
  let kafka: PrivateKafka;
  let amqpGate: Awaited<ReturnType<typeof gatedProxy>>;
  let pubsubGate: Awaited<ReturnType<typeof gatedProxy>>;
  let stack: BrokerStack;

  beforeAll(async () => {
    kafka = await PrivateKafka.start(libs);
    amqpGate = await gatedProxy({ host: TEST_BROKERS.amqpHost, port: Number(TEST_BROKERS.amqpPort) }, true);
    const [host, port] = TEST_BROKERS.pubsubEmulatorHost.split(':');
    pubsubGate = await gatedProxy({ host, port: Number(port) }, true);
    stack = new BrokerStack({ env: { PUBSUB_EMULATOR_HOST: `127.0.0.1:${pubsubGate.port}` } });
    await stack.setUp();
  });

  afterAll(async () => {
    await stack?.tearDown();
    await kafka?.remove();
    await amqpGate?.close();
    await pubsubGate?.close();
  });

  const name = (kind: string) => `hr-outage-${kind}-${randomBytes(3).toString('hex')}`;

  it('kafka: loses none of 1,000 messages when the broker is killed and restarted', async () => {
    const topic = name('kafka');
    const broker = await kafkaTopic(topic, { brokers: kafka.brokers });
    const settings = pubSubFor('kafka', topic, 2) as { kafka: Record<string, unknown> };
    settings.kafka.brokers = kafka.brokers;
    const source = await stack.createSource(settings);
    await streamThroughOutage(stack, source, broker, 'outage-kafka', {
      down: () => kafka.kill(),
      up: () => kafka.restart(),
    });
    await broker.close();
  });

  it('amqp: loses none of 1,000 messages when the connection is cut and refused for a while', async () => {
    const q = name('amqp');
    const queue = await amqpQueue(q);
    const settings = pubSubFor('amqp', q, 2) as { amqp: Record<string, unknown> };
    settings.amqp.port = String(amqpGate.port);
    const source = await stack.createSource(settings);
    await streamThroughOutage(stack, source, queue, 'outage-amqp', {
      down: async () => amqpGate.shut(),
      up: async () => amqpGate.open(),
    });
    await queue.close();
  });

  it('google: loses none of 1,000 messages when the connection is cut and refused for a while', async () => {
    const sub = await pubsubSubscription(name('google'));
    const source = await stack.createSource(pubSubFor('google', sub.subscriptionId, 2));
    await streamThroughOutage(stack, source, sub, 'outage-google', {
      down: async () => pubsubGate.shut(),
      up: async () => pubsubGate.open(),
    });
    await sub.close();
  });
});
