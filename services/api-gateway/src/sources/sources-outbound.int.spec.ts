import { randomBytes } from 'node:crypto';
import { amqpQueue, kafkaTopic, TEST_BROKERS } from '@hookrail/testkit';
import { GatewayHarness } from '../testing/gateway-harness';

jest.setTimeout(60_000);

type Res = { status: number; body: { data: { errors: { field: string; message: string }[] } } };
const problem = (res: Res) => {
  expect(res.status).toBe(400);
  return res.body.data.errors[0];
};
const name = (what: string) => `out-${what}-${randomBytes(3).toString('hex')}`;

/**
 * Where a tenant's broker source may connect: private hosts only when the deployment allows them,
 * and never Hookrail's own topics or consumer groups on its own Kafka (docs/brokers.md).
 */
describe.each([
  ['private brokers refused', 'false'],
  ['private brokers allowed', 'true'],
])('broker sources: %s', (_title, allowPrivate) => {
  const h = new GatewayHarness();
  const closers: { close(): Promise<void> }[] = [];
  let p: Awaited<ReturnType<GatewayHarness['createProject']>>;
  beforeAll(async () => {
    await h.start({
      HOOKRAIL_ENCRYPTION_KEY: 'outbound-test-key',
      HOOKRAIL_ALLOW_PRIVATE_BROKERS: allowPrivate,
    });
    p = await h.createProject('incoming');
  });
  afterAll(async () => {
    await Promise.all(closers.map((c) => c.close()));
    await h.stop();
  });
  const create = (pubSub: Record<string, unknown>) =>
    h.call('POST', `/v1/projects/${p.id}/sources`, {
      key: p.key,
      body: { name: name('src'), type: 'pub_sub', pub_sub: pubSub },
    }) as Promise<Res>;
  const amqp = (host: string, queue: string) => ({
    type: 'amqp',
    amqp: {
      host,
      port: TEST_BROKERS.amqpPort,
      queue,
      auth: { user: TEST_BROKERS.amqpUser, password: TEST_BROKERS.amqpPassword },
    },
  });

  if (allowPrivate === 'false') {
    it('refuses AMQP and Kafka hosts on private or loopback addresses, by IP or by name', async () => {
      const q = name('q');
      closers.push(await amqpQueue(q), await kafkaTopic(q));
      for (const host of ['127.0.0.1', 'localhost'])
        expect(problem(await create(amqp(host, q)))).toMatchObject({
          field: 'pub_sub.amqp.host',
          message: expect.stringMatching(/private, loopback or link-local addresses are not allowed/),
        });
      expect(
        problem(
          await create({ type: 'kafka', kafka: { brokers: TEST_BROKERS.kafkaBrokers, topic_name: q } }),
        ),
      ).toMatchObject({
        field: 'pub_sub.kafka.brokers',
        message: expect.stringMatching(/not allowed/),
      });
    });
  } else {
    it('accepts the same hosts, and a topic of its own on Hookrail’s cluster', async () => {
      const q = name('q');
      closers.push(await amqpQueue(q), await kafkaTopic(q));
      expect((await create(amqp('localhost', q))).status).toBe(201);
      expect(
        (await create({ type: 'kafka', kafka: { brokers: TEST_BROKERS.kafkaBrokers, topic_name: q } }))
          .status,
      ).toBe(201);
    });

    it('refuses Hookrail’s own topics and consumer groups on its own cluster', async () => {
      expect(
        problem(
          await create({
            type: 'kafka',
            kafka: { brokers: TEST_BROKERS.kafkaBrokers, topic_name: `${h.prefix}.deliveries` },
          }),
        ),
      ).toEqual({
        field: 'pub_sub.kafka.topic_name',
        message: `topic "${h.prefix}.deliveries" is one of Hookrail's own topics (prefix "${h.prefix}.") on its own cluster`,
      });
      const q = name('own-group');
      closers.push(await kafkaTopic(q));
      expect(
        problem(
          await create({
            type: 'kafka',
            kafka: {
              brokers: TEST_BROKERS.kafkaBrokers,
              topic_name: q,
              consumer_group_id: `${h.prefix}.dispatcher-router`,
            },
          }),
        ),
      ).toMatchObject({ field: 'pub_sub.kafka.consumer_group_id' });
    });
  }
});
