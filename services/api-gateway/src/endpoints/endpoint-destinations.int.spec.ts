import { GatewayHarness } from '../testing/gateway-harness';

const kafka = { brokers: ['127.0.0.1:9092'], topic_name: 'orders' };
const withAuth = {
  ...kafka,
  auth: { type: 'scram', hash: 'SHA512', username: 'svc', password: 'kafka-pass-123' },
};

describe('endpoints API: broker destinations (type, destination)', () => {
  const h = new GatewayHarness();
  let p: Awaited<ReturnType<GatewayHarness['createProject']>>;
  beforeAll(async () => {
    await h.start({ HOOKRAIL_ENCRYPTION_KEY: 'destinations-test-key' });
    p = await h.createProject('outgoing');
  });
  afterAll(() => h.stop());

  const base = () => `/v1/projects/${p.id}/endpoints`;
  const create = (body: unknown) => h.call('POST', base(), { key: p.key, body });
  const update = (id: string, body: unknown) => h.call('PUT', `${base()}/${id}`, { key: p.key, body });

  it('creates a kafka endpoint: credentials sealed at rest and never returned; an update keeps them when left out', async () => {
    const res = await create({ name: 'orders', type: 'kafka', destination: withAuth });
    expect(res.status).toBe(201);
    const e = res.body.data;
    expect(e).toMatchObject({
      type: 'kafka',
      url: '',
      destination: { ...kafka, auth: { type: 'scram', hash: 'SHA512', username: 'svc' } },
    });
    expect(JSON.stringify(e)).not.toContain('kafka-pass-123');
    const stored = await h.store.endpoints.findById(p.id, e.uid);
    expect(JSON.stringify(stored)).not.toContain('kafka-pass-123');
    const sealed = (stored!.destination!.auth as { password: string }).password;
    expect(sealed).toBeTruthy();
    expect((await h.call('GET', `${base()}/${e.uid}`, { key: p.key })).body.data).toEqual(e);

    // other fields, and the destination without its password: the stored password stays
    expect((await update(e.uid, { name: 'orders-2' })).body.data.destination).toEqual(e.destination);
    const moved = await update(e.uid, {
      type: 'kafka',
      destination: { ...kafka, topic_name: 'orders-v2', auth: { type: 'scram', username: 'svc' } },
    });
    expect(moved.status).toBe(202);
    expect(moved.body.data.destination.topic_name).toBe('orders-v2');
    const after = await h.store.endpoints.findById(p.id, e.uid);
    expect((after!.destination!.auth as { password: string }).password).toBe(sealed);
  });

  it('creates sqs and google_pubsub endpoints without returning the secret key or the key file', async () => {
    const sqs = await create({
      name: 'q',
      type: 'sqs',
      destination: {
        access_key_id: 'AKIA1',
        secret_key: 'sqs-secret-456',
        default_region: 'eu-west-1',
        queue_name: 'jobs.fifo',
      },
    });
    expect(sqs.status).toBe(201);
    expect(sqs.body.data.destination).toEqual({
      access_key_id: 'AKIA1',
      default_region: 'eu-west-1',
      queue_name: 'jobs.fifo',
    });
    const key = Buffer.from(JSON.stringify({ client_email: 'a@b', private_key: 'pk-789' })).toString(
      'base64',
    );
    const google = await create({
      name: 'g',
      type: 'google_pubsub',
      destination: { project_id: 'proj', topic_id: 'events', service_account: key, message_ordering: true },
    });
    expect(google.status).toBe(201);
    expect(google.body.data.destination).toEqual({
      project_id: 'proj',
      topic_id: 'events',
      message_ordering: true,
    });
    const stored = await h.store.endpoints.findById(p.id, google.body.data.uid);
    expect(JSON.stringify(stored)).not.toContain(key);
    expect(JSON.stringify(await h.store.endpoints.findById(p.id, sqs.body.data.uid))).not.toContain(
      'sqs-secret-456',
    );
  });

  it('a Convoy body without type is an http endpoint; switching types follows the same rules', async () => {
    const res = await create({ name: 'plain', url: 'https://e.com/hook' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ type: 'http', url: 'https://e.com/hook', destination: null });
    const toKafka = await update(res.body.data.uid, { type: 'kafka', destination: kafka });
    expect(toKafka.body.data).toMatchObject({ type: 'kafka', url: '', destination: kafka });
    const noUrl = await update(res.body.data.uid, { type: 'http' });
    expect(noUrl.status).toBe(400);
    expect(noUrl.body.data.errors[0].field).toBe('url');
    const back = await update(res.body.data.uid, { type: 'http', url: 'https://e.com/again' });
    expect(back.body.data).toMatchObject({ type: 'http', url: 'https://e.com/again', destination: null });
  });

  it('rejects bad destination bodies with 400 naming the field', async () => {
    const made = (await create({ name: 'k', type: 'kafka', destination: kafka })).body.data;
    const cases: [string, unknown, string][] = [
      ['create', { name: 'x' }, 'url'],
      ['create', { name: 'x', type: 'nats', destination: kafka }, 'type'],
      ['create', { name: 'x', type: 'kafka' }, 'destination'],
      ['create', { name: 'x', type: 'kafka', destination: {} }, 'destination.brokers'],
      ['create', { name: 'x', type: 'kafka', destination: { brokers: [] } }, 'destination.topic_name'],
      [
        'create',
        { name: 'x', type: 'kafka', destination: { ...kafka, auth: { type: 'oauth' } } },
        'destination.auth.type',
      ],
      ['create', { name: 'x', type: 'amqp', destination: { host: 'mq.example.com' } }, 'destination.queue'],
      [
        'create',
        { name: 'x', type: 'amqp', destination: { host: 'h', queue: 'q', port: 'x' } },
        'destination.port',
      ],
      [
        'create',
        {
          name: 'x',
          type: 'sqs',
          destination: { access_key_id: 'a', default_region: 'r', queue_name: 'bad name!' },
        },
        'destination.queue_name',
      ],
      [
        'create',
        { name: 'x', type: 'sqs', destination: { access_key_id: 'a', default_region: 'r', queue_name: 'q' } },
        'destination.secret_key',
      ],
      [
        'create',
        { name: 'x', type: 'google_pubsub', destination: { project_id: 'p' } },
        'destination.topic_id',
      ],
      ['create', { name: 'x', type: 'kafka', url: 'https://e.com', destination: kafka }, 'url'],
      ['create', { name: 'x', url: 'https://e.com', destination: kafka }, 'type'],
      ['create', { name: 'x', type: 'http', url: 'https://e.com', destination: kafka }, 'destination'],
      ['update', { destination: kafka }, 'type'],
      ['update', { type: 'kafka', destination: { topic_name: 't' } }, 'destination.brokers'],
      ['update', { type: 'sqs' }, 'destination'],
    ];
    for (const [op, body, field] of cases) {
      const res = op === 'create' ? await create(body) : await update(made.uid, body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expect({ body, fields: res.body.data.errors.map((e: { field: string }) => e.field) }).toEqual({
        body,
        fields: expect.arrayContaining([field]),
      });
    }
  });
});

describe('broker destinations on private addresses (HOOKRAIL_ALLOW_PRIVATE_TARGETS=false)', () => {
  const h = new GatewayHarness();
  let p: Awaited<ReturnType<GatewayHarness['createProject']>>;
  beforeAll(async () => {
    await h.start({ HOOKRAIL_ALLOW_PRIVATE_TARGETS: 'false' });
    p = await h.createProject('outgoing');
  });
  afterAll(() => h.stop());

  it('refuses a loopback or private kafka broker or amqp host, like an http URL', async () => {
    const cases: [unknown, string][] = [
      [{ type: 'kafka', destination: kafka }, 'destination.brokers'],
      [
        { type: 'kafka', destination: { brokers: ['localhost:9092'], topic_name: 't' } },
        'destination.brokers',
      ],
      [{ type: 'amqp', destination: { host: '10.1.2.3', queue: 'q' } }, 'destination.host'],
    ];
    for (const [body, field] of cases) {
      const res = await h.call('POST', `/v1/projects/${p.id}/endpoints`, {
        key: p.key,
        body: { name: 'x', ...(body as object) },
      });
      expect(res.status).toBe(400);
      expect(res.body.data.errors[0]).toEqual({ field, message: expect.stringContaining('private') });
    }
  });
});
