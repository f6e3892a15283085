import { amqpQueue, kafkaTopic, TEST_BROKERS } from '@hookrail/testkit';
import { BrokerStack } from './testing/broker-stack';

jest.setTimeout(90_000);

/**
 * The source-consumer applies the same rules as the API when it connects, so a source written
 * before the rules, or straight into the database, cannot bypass them: private hosts are refused
 * unless the deployment allows them, and Hookrail's own topics on its own cluster are never read.
 * A refused source shows `unreachable` with the reason and consumes nothing.
 */
describe('broker sources: where the source-consumer connects', () => {
  const closers: { close(): Promise<void> }[] = [];
  afterAll(async () => {
    await Promise.all(closers.map((c) => c.close()));
  });

  describe('private brokers refused', () => {
    const stack = new BrokerStack({ env: { HOOKRAIL_ALLOW_PRIVATE_BROKERS: 'false' } });
    beforeAll(() => stack.setUp());
    afterAll(() => stack.tearDown());

    it('an AMQP source on a loopback host is unreachable with the reason', async () => {
      const q = `guard-amqp-${Date.now()}`;
      closers.push(await amqpQueue(q));
      const source = await stack.createSource({
        type: 'amqp',
        workers: 1,
        amqp: {
          host: 'localhost',
          port: TEST_BROKERS.amqpPort,
          queue: q,
          auth: { user: TEST_BROKERS.amqpUser, password: TEST_BROKERS.amqpPassword },
        },
      });
      const health = await stack.waitState(source, 'unreachable', 30_000);
      expect(health.error).toMatch(/private, loopback or link-local addresses are not allowed/);
    });

    it('a Kafka source on a loopback broker is unreachable with the reason', async () => {
      const topic = `guard-kafka-${Date.now()}`;
      closers.push(await kafkaTopic(topic));
      const source = await stack.createSource({
        type: 'kafka',
        workers: 1,
        kafka: { brokers: TEST_BROKERS.kafkaBrokers, topic_name: topic },
      });
      const health = await stack.waitState(source, 'unreachable', 60_000);
      expect(health.error).toMatch(/not allowed/);
    });
  });

  describe('private brokers allowed', () => {
    const stack = new BrokerStack();
    beforeAll(() => stack.setUp());
    afterAll(() => stack.tearDown());

    it('a Kafka source on one of Hookrail’s own topics is refused before its consumer joins: unreachable with the reason', async () => {
      const source = await stack.createSource({
        type: 'kafka',
        workers: 1,
        kafka: { brokers: TEST_BROKERS.kafkaBrokers, topic_name: `${stack.prefix}.deliveries` },
      });
      const health = await stack.waitState(source, 'unreachable', 30_000);
      expect(health.error).toBe(
        `topic "${stack.prefix}.deliveries" is one of Hookrail's own topics (prefix "${stack.prefix}.") on its own cluster`,
      );
    });
  });
});
