import { randomBytes } from 'node:crypto';
import { amqpQueue, kafkaTopic, pubsubSubscription, sqsQueue, TEST_BROKERS } from '@hookrail/testkit';
import { GatewayHarness } from '../testing/gateway-harness';

jest.setTimeout(60_000);

/** A broker source is checked against its broker on create and update (the local servers). */
describe('broker sources: settings checked against the broker, health shown', () => {
  const h = new GatewayHarness();
  const closers: { close(): Promise<void> }[] = [];
  const name = (what: string) => `gw-${what}-${randomBytes(3).toString('hex')}`;
  let p: Awaited<ReturnType<GatewayHarness['createProject']>>;
  beforeAll(async () => {
    await h.start({
      HOOKRAIL_ENCRYPTION_KEY: 'broker-sources-test-key',
      HOOKRAIL_SQS_ENDPOINT: TEST_BROKERS.sqsEndpoint,
      PUBSUB_EMULATOR_HOST: TEST_BROKERS.pubsubEmulatorHost,
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
    });
  const amqp = (over: Record<string, unknown>) => ({
    type: 'amqp',
    amqp: {
      host: TEST_BROKERS.amqpHost,
      port: TEST_BROKERS.amqpPort,
      queue: 'missing',
      auth: { user: TEST_BROKERS.amqpUser, password: TEST_BROKERS.amqpPassword },
      ...over,
    },
  });
  const problem = (res: {
    status: number;
    body: { data: { errors: { field: string; message: string }[] } };
  }) => {
    expect(res.status).toBe(400);
    return res.body.data.errors[0];
  };

  it('accepts settings that work against each broker', async () => {
    const q = name('ok');
    const rabbit = await amqpQueue(q);
    const sqs = await sqsQueue(q);
    const google = await pubsubSubscription(q);
    const kafka = await kafkaTopic(q);
    closers.push(rabbit, sqs, google, kafka);
    expect((await create(amqp({ queue: q }))).status).toBe(201);
    const sqsRes = await create({
      type: 'sqs',
      sqs: { access_key_id: 'x', secret_key: 'x', default_region: TEST_BROKERS.sqsRegion, queue_name: q },
    });
    expect(sqsRes.status).toBe(201);
    expect(
      (
        await create({
          type: 'google',
          google: { project_id: TEST_BROKERS.pubsubProject, subscription_id: q },
        })
      ).status,
    ).toBe(201);
    expect(
      (await create({ type: 'kafka', kafka: { brokers: TEST_BROKERS.kafkaBrokers, topic_name: q } })).status,
    ).toBe(201);
  });

  it('answers 400 naming an unreachable host, refused credentials or a missing queue (amqp)', async () => {
    const q = name('amqp');
    closers.push(await amqpQueue(q));
    expect(problem(await create(amqp({ queue: q, port: '1' })))).toMatchObject({
      field: 'pub_sub.amqp.host',
      message: expect.stringContaining('cannot connect to amqp://guest@127.0.0.1:1'),
    });
    expect(
      problem(await create(amqp({ queue: q, auth: { user: 'guest', password: 'wrong' } }))),
    ).toMatchObject({
      field: 'pub_sub.amqp.auth',
      message: expect.stringContaining('refused the user or password'),
    });
    expect(problem(await create(amqp({ queue: `${q}-nope` })))).toEqual({
      field: 'pub_sub.amqp.queue',
      message: `queue "${q}-nope" does not exist on amqp://guest@127.0.0.1:${TEST_BROKERS.amqpPort}`,
    });
    expect(
      problem(await create(amqp({ queue: q, bindExchange: { exchange: `${q}-nox`, routingKey: '' } }))),
    ).toMatchObject({
      field: 'pub_sub.amqp.bindExchange.exchange',
    });
  });

  it('answers 400 naming a missing SQS queue, Kafka topic or Pub/Sub subscription', async () => {
    const sqs = problem(
      await create({
        type: 'sqs',
        sqs: {
          access_key_id: 'x',
          secret_key: 'x',
          default_region: TEST_BROKERS.sqsRegion,
          queue_name: name('none'),
        },
      }),
    );
    expect(sqs).toMatchObject({
      field: 'pub_sub.sqs.queue_name',
      message: expect.stringContaining('does not exist'),
    });
    const kafka = problem(
      await create({
        type: 'kafka',
        kafka: { brokers: TEST_BROKERS.kafkaBrokers, topic_name: name('none') },
      }),
    );
    expect(kafka).toMatchObject({
      field: 'pub_sub.kafka.topic_name',
      message: expect.stringContaining('does not exist'),
    });
    const unreachable = problem(
      await create({ type: 'kafka', kafka: { brokers: ['127.0.0.1:1'], topic_name: 't' } }),
    );
    expect(unreachable.field).toBe('pub_sub.kafka.brokers');
    const google = problem(
      await create({
        type: 'google',
        google: { project_id: TEST_BROKERS.pubsubProject, subscription_id: name('none') },
      }),
    );
    expect(google).toMatchObject({
      field: 'pub_sub.google.subscription_id',
      message: expect.stringContaining('does not exist'),
    });
  });

  it('checks new settings on update and keeps the old ones when they fail', async () => {
    const q = name('upd');
    closers.push(await amqpQueue(q));
    const created = (await create(amqp({ queue: q }))).body.data;
    const res = await h.call('PUT', `/v1/projects/${p.id}/sources/${created.uid}`, {
      key: p.key,
      body: { pub_sub: amqp({ queue: `${q}-gone` }) },
    });
    expect(problem(res).field).toBe('pub_sub.amqp.queue');
    const stored = await h.call('GET', `/v1/projects/${p.id}/sources/${created.uid}`, { key: p.key });
    expect(stored.body.data.pub_sub.amqp.queue).toBe(q);
  });

  it("shows the consumer's reported health on get and list", async () => {
    const q = name('health');
    closers.push(await amqpQueue(q));
    const created = (await create(amqp({ queue: q }))).body.data;
    const get = () => h.call('GET', `/v1/projects/${p.id}/sources/${created.uid}`, { key: p.key });
    expect((await get()).body.data.health).toBeNull();
    await h.store.sourceHealth.report(p.id, created.uid, 'unreachable', 'connection refused', 'sc-1');
    expect((await get()).body.data.health).toEqual({
      state: 'unreachable',
      error: 'connection refused',
      instance_id: 'sc-1',
      updated_at: expect.any(String),
      // a change stream's lag: none for a broker source
      lag_seconds: null,
      behind_bytes: null,
      behind_changes: null,
    });
    const list = await h.call('GET', `/v1/projects/${p.id}/sources?perPage=100`, { key: p.key });
    const listed = list.body.data.content.find((s: { uid: string }) => s.uid === created.uid);
    expect(listed.health.state).toBe('unreachable');
  });
});
