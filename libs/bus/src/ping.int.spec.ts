import {
  deleteTopicsWithPrefix,
  localKafkaLibs,
  PrivateKafka,
  testBus,
  uniquePrefix,
  waitFor,
} from '@hookrail/testkit';
import type { Bus } from './bus';

jest.setTimeout(120_000);

const libs = localKafkaLibs();
if (!libs) throw new Error('the local Kafka jars are missing: run `bash deploy/local/provision.sh`');

/**
 * Readiness pings keep one admin connection between calls: it must still notice a broker that
 * died under it, and come back once the broker does.
 */
describe('Bus.ping on a kept connection', () => {
  let kafka: PrivateKafka;
  let bus: Bus;

  beforeAll(async () => {
    kafka = await PrivateKafka.start(libs);
    bus = testBus(uniquePrefix('ping'), kafka.brokers);
    await bus.ensureTopics();
  });
  afterAll(async () => {
    await bus?.close();
    await kafka?.remove();
  });

  it('answers true, false once the broker is killed, true again after it restarts', async () => {
    expect(await bus.ping()).toBe(true);
    expect(await bus.ping()).toBe(true);
    await kafka.kill();
    expect(await bus.ping(2000)).toBe(false);
    await kafka.restart();
    await waitFor('ping after the restart', () => bus.ping(2000), { timeoutMs: 60_000, intervalMs: 500 });
    expect(await bus.ping()).toBe(true);
  });
});

/**
 * The ping asks Kafka about the deployment's own events topic, not about every topic in the
 * cluster (kafkajs' describeCluster does that), and never creates the topic by asking.
 */
describe('Bus.ping asks about its own topic', () => {
  const prefix = uniquePrefix('ping-topic');
  const bus = testBus(prefix);
  afterAll(async () => {
    await bus.close();
    await deleteTopicsWithPrefix(prefix);
  });

  it('is false while the topics do not exist, creates none, and is true once they do', async () => {
    expect(await bus.ping()).toBe(false);
    const admin = bus.kafka.admin();
    await admin.connect();
    try {
      expect((await admin.listTopics()).filter((t) => t.startsWith(prefix))).toEqual([]);
    } finally {
      await admin.disconnect();
    }
    await bus.ensureTopics();
    await waitFor('ping once the topics exist', () => bus.ping(), { timeoutMs: 30_000, intervalMs: 250 });
    expect(await bus.ping()).toBe(true);
  });
});
