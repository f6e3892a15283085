import { Kafka, logLevel } from 'kafkajs';
import { createTopicsWithLeaders, localKafkaLibs, PrivateKafka, SASL_USERS } from '@hookrail/testkit';
import { BrokerStack } from './testing/broker-stack';

jest.setTimeout(180_000);

const libs = localKafkaLibs();
if (!libs) throw new Error('the local Kafka jars are missing: run `bash deploy/local/provision.sh`');

/**
 * Kafka sources with SASL on a private broker whose only listener requires it: each mechanism a
 * source can choose (`auth.type` plain, or scram with hash SHA256 / SHA512) consumes and delivers;
 * wrong credentials leave the source unreachable, never consuming.
 */
describe('kafka source with SASL', () => {
  const stack = new BrokerStack();
  let kafka: PrivateKafka;
  let producer: ReturnType<Kafka['producer']>;

  beforeAll(async () => {
    kafka = await PrivateKafka.start(libs, { sasl: true });
    const client = new Kafka({
      clientId: 'tests',
      brokers: kafka.brokers,
      sasl: { mechanism: 'plain', ...SASL_USERS.plain },
      logLevel: logLevel.NOTHING,
    });
    const admin = client.admin();
    await admin.connect();
    await createTopicsWithLeaders(
      admin,
      ['sasl-plain', 'sasl-256', 'sasl-512', 'sasl-wrong'].map((topic) => ({ topic, numPartitions: 1 })),
    );
    await admin.disconnect();
    producer = client.producer();
    await producer.connect();
    await stack.setUp();
  });

  afterAll(async () => {
    await producer?.disconnect();
    await stack.tearDown();
    await kafka?.remove();
  });

  const settings = (topic: string, auth: Record<string, unknown>) => ({
    type: 'kafka',
    workers: 1,
    kafka: { brokers: kafka.brokers, topic_name: topic, consumer_group_id: `${topic}-group`, auth },
  });

  it.each([
    ['plain', 'sasl-plain', { type: 'plain', ...SASL_USERS.plain }],
    ['scram-sha-256', 'sasl-256', { type: 'scram', hash: 'SHA256', ...SASL_USERS['scram-sha-256'] }],
    ['scram-sha-512', 'sasl-512', { type: 'scram', hash: 'SHA512', ...SASL_USERS['scram-sha-512'] }],
  ])('%s: consumes and delivers', async (_mechanism, topic, auth) => {
    const source = await stack.createSource(settings(topic, auth));
    await stack.waitState(source, 'consuming', 60_000);
    const tag = `sasl-${topic}`;
    await producer.send({ topic, acks: -1, messages: [{ value: JSON.stringify({ tag }) }] });
    const [got] = await stack.waitTagged(tag, 1, 30_000);
    expect(JSON.parse(got.body)).toEqual({ tag });
  });

  it('wrong credentials: the source is unreachable and consumes nothing', async () => {
    const source = await stack.createSource(
      settings('sasl-wrong', {
        type: 'scram',
        hash: 'SHA256',
        username: SASL_USERS['scram-sha-256'].username,
        password: 'nope',
      }),
    );
    const health = await stack.waitState(source, 'unreachable', 60_000);
    expect(health.error).toMatch(/sasl|auth|credential/i);
    await producer.send({
      topic: 'sasl-wrong',
      acks: -1,
      messages: [{ value: JSON.stringify({ tag: 'never' }) }],
    });
    await new Promise((r) => setTimeout(r, 2000));
    expect(stack.requestsTagged('never')).toHaveLength(0);
  });
});
