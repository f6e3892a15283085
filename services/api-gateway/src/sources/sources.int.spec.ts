import { amqpQueue, sqsQueue, TEST_BROKERS, waitFor } from '@hookrail/testkit';
import type { ConfigMessage } from '@hookrail/bus';
import { GatewayHarness } from '../testing/gateway-harness';

const ENCRYPTION_KEY = 'sources-test-encryption-key';

describe('sources API: create, update, list, get, delete', () => {
  const h = new GatewayHarness();
  let p: Awaited<ReturnType<GatewayHarness['createProject']>>;
  let configMessages: ConfigMessage[];
  beforeAll(async () => {
    await h.start({
      HOOKRAIL_ENCRYPTION_KEY: ENCRYPTION_KEY,
      HOOKRAIL_INGEST_PUBLIC_URL: 'https://in.example.com',
      // Broker sources are checked against their broker: the local servers.
      HOOKRAIL_SQS_ENDPOINT: TEST_BROKERS.sqsEndpoint,
      PUBSUB_EMULATOR_HOST: TEST_BROKERS.pubsubEmulatorHost,
    });
    p = await h.createProject('incoming');
    configMessages = await h.collect('config');
  });
  afterAll(() => h.stop());

  const create = (body: unknown, key = p.key, projectId = p.id) =>
    h.call('POST', `/v1/projects/${projectId}/sources`, { key, body });

  it('creates an http source with an hmac verifier: 201, ingest url, secret sealed at rest', async () => {
    const res = await create({
      name: 'github-main',
      type: 'http',
      verifier: {
        type: 'hmac',
        hmac: { header: 'X-Sig', hash: 'SHA512', encoding: 'base64', secret: 's3cret' },
      },
      idempotency_keys: ['request.header.X-Id'],
      custom_response: { body: 'ok', content_type: 'text/plain' },
    });
    expect(res.status).toBe(201);
    const s = res.body.data;
    expect(s.url).toBe(`https://in.example.com/ingest/${s.mask_id}`);
    expect(s.verifier).toEqual({
      type: 'hmac',
      hmac: { header: 'X-Sig', hash: 'SHA512', encoding: 'base64', secret: 's3cret' },
    });
    expect(s.deleted_at).toBeNull();
    expect(s.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const stored = await h.store.sources.findById(p.id, s.uid);
    expect(JSON.stringify(stored?.verifier)).not.toContain('s3cret');
    await waitFor('config message', () =>
      configMessages.find((m) => m.id === s.uid && m.resource === 'source' && m.op === 'created'),
    );
  });

  it('takes only the secret for a provider source (the provider fixes the signature scheme)', async () => {
    const res = await create({
      name: 'gh',
      type: 'http',
      provider: 'github',
      verifier: { type: 'hmac', hmac: { secret: 'x' } },
    });
    expect(res.status).toBe(201);
    expect(res.body.data.verifier).toEqual({ type: 'hmac', hmac: { secret: 'x' } });
    const missing = await create({ name: 'gh2', type: 'http', provider: 'github' });
    expect(missing.status).toBe(400);
    expect(missing.body.data.errors[0].field).toBe('verifier.hmac.secret');
  });

  it('takes amqp bindExchange in requests and returns bindedExchange/routingKey; sqs responses carry endpoint', async () => {
    const queue = `sources-api-${p.id}`;
    const rabbit = await amqpQueue(queue, { exchange: `${queue}.ex` });
    const sqsQ = await sqsQueue(queue);
    const amqp = await create({
      name: 'rabbit',
      type: 'pub_sub',
      pub_sub: {
        type: 'amqp',
        workers: 2,
        amqp: {
          host: TEST_BROKERS.amqpHost,
          port: TEST_BROKERS.amqpPort,
          schema: 'amqp',
          queue,
          auth: { user: TEST_BROKERS.amqpUser, password: TEST_BROKERS.amqpPassword },
          bindExchange: { exchange: `${queue}.ex`, routingKey: 'rk' },
        },
      },
    });
    expect(amqp.status).toBe(201);
    expect(amqp.body.data.pub_sub.amqp).toMatchObject({
      bindedExchange: `${queue}.ex`,
      routingKey: 'rk',
      auth: { user: TEST_BROKERS.amqpUser, password: TEST_BROKERS.amqpPassword },
    });
    expect(amqp.body.data.pub_sub.amqp).not.toHaveProperty('bindExchange');
    const stored = await h.store.sources.findById(p.id, amqp.body.data.uid);
    const storedAuth = (stored?.pub_sub?.amqp as { auth: { password: string } }).auth;
    expect(storedAuth.password).not.toBe(TEST_BROKERS.amqpPassword); // sealed at rest

    const sqs = await create({
      name: 'sqs',
      type: 'pub_sub',
      pub_sub: {
        type: 'sqs',
        workers: 1,
        sqs: {
          access_key_id: 'a',
          secret_key: 'b',
          default_region: TEST_BROKERS.sqsRegion,
          queue_name: queue,
        },
      },
    });
    expect(sqs.status).toBe(201);
    expect(sqs.body.data.pub_sub.sqs.endpoint).toBe(TEST_BROKERS.sqsEndpoint);

    // a response sent back as an update is accepted (response-only fields are ignored)
    const roundTrip = await h.call('PUT', `/v1/projects/${p.id}/sources/${amqp.body.data.uid}`, {
      key: p.key,
      body: amqp.body.data,
    });
    expect(roundTrip.status).toBe(202);
    expect(roundTrip.body.data.pub_sub.amqp.bindedExchange).toBe(`${queue}.ex`);
    await rabbit.close();
    await sqsQ.close();
  });

  it.each([
    [{ name: 'v', type: 'http', verifier: { type: 'hmac' } }, 'verifier.hmac'],
    [
      {
        name: 'v',
        type: 'http',
        verifier: { type: 'api_key', basic_auth: { username: 'a', password: 'b' } },
      },
      'verifier.api_key',
    ],
    [{ name: 'v', type: 'http', verifier: { hmac: { secret: 'x', header: 'h' } } }, 'verifier.type'],
    [{ name: 'v', type: 'http', verifier: { type: 'rot13' } }, 'verifier.type'],
    [{ name: 'v', type: 'pub_sub' }, 'pub_sub'],
    [{ name: 'v', type: 'pub_sub', pub_sub: { type: 'sqs', workers: 1 } }, 'pub_sub.sqs'],
    [
      { name: 'v', type: 'pub_sub', pub_sub: { type: 'sqs', sqs: { access_key_id: 'a' } } },
      'pub_sub.sqs.secret_key',
    ],
    [
      { name: 'v', type: 'pub_sub', pub_sub: { type: 'kafka', kafka: { brokers: 'b', topic_name: 't' } } },
      'pub_sub.kafka.brokers',
    ],
    [
      {
        name: 'v',
        type: 'http',
        pub_sub: {
          type: 'sqs',
          sqs: { access_key_id: 'a', secret_key: 'b', default_region: 'r', queue_name: 'q' },
        },
      },
      'pub_sub',
    ],
    [{ name: 'v', type: 'webhook' }, 'type'],
    [{ name: 'v', type: 'http', provider: 'gitlab' }, 'provider'],
    [{ name: 'v', type: 'http', is_disabled: 'yes' }, 'is_disabled'],
    [{ name: 'v', type: 'http', colour: 'red' }, 'colour'],
    [{ name: 'v', type: 'http', custom_response: { body: 'x' } }, 'custom_response.content_type'],
    [{ name: 'v', type: 'http', idempotency_keys: ['header.X'] }, 'idempotency_keys.0'],
    [{ type: 'http' }, 'name'],
  ])('rejects %j with 400 naming %s', async (body, field) => {
    const res = await create(body);
    expect(res.status).toBe(400);
    expect(res.body.status).toBe(false);
    expect(res.body.data.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it.each([['rest_api', 'rest_api is the events API itself']])(
    'refuses a %s source with a 400 naming type and saying why, on create and update',
    async (type, why) => {
      const before = (await h.call('GET', `/v1/projects/${p.id}/sources?perPage=100`, { key: p.key })).body
        .data.content.length;
      const res = await create({ name: `refused-${type}`, type });
      expect(res.status).toBe(400);
      expect(res.body.data.errors).toEqual([{ field: 'type', message: expect.stringContaining(why) }]);
      const s = (await create({ name: `http-then-${type}`, type: 'http' })).body.data;
      const update = await h.call('PUT', `/v1/projects/${p.id}/sources/${s.uid}`, {
        key: p.key,
        body: { type },
      });
      expect(update.status).toBe(400);
      expect(update.body.data.errors[0]).toEqual({ field: 'type', message: expect.stringContaining(why) });
      expect((await h.store.sources.findById(p.id, s.uid))?.type).toBe('http');
      const after = (await h.call('GET', `/v1/projects/${p.id}/sources?perPage=100`, { key: p.key })).body
        .data.content.length;
      expect(after).toBe(before + 1);
    },
  );

  it('updates a source: 202, disable and forward_headers; 409 on a duplicate name', async () => {
    const s = (await create({ name: 'to-update', type: 'http' })).body.data;
    const res = await h.call('PUT', `/v1/projects/${p.id}/sources/${s.uid}`, {
      key: p.key,
      body: { is_disabled: true, forward_headers: ['X-Tenant'] },
    });
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({
      is_disabled: true,
      forward_headers: ['X-Tenant'],
      name: 'to-update',
      mask_id: s.mask_id,
    });
    expect(
      (await h.call('GET', `/v1/projects/${p.id}/sources/${s.uid}`, { key: p.key })).body.data.is_disabled,
    ).toBe(true);
    const dup = await h.call('PUT', `/v1/projects/${p.id}/sources/${s.uid}`, {
      key: p.key,
      body: { name: 'github-main' },
    });
    expect(dup.status).toBe(409);
    const bad = await h.call('PUT', `/v1/projects/${p.id}/sources/${s.uid}`, {
      key: p.key,
      body: { type: 'pub_sub' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.data.errors[0].field).toBe('pub_sub');
  });

  it('empties the provider, the functions and the custom response only through `clear`', async () => {
    const s = (
      await create({
        name: 'cleared-src',
        type: 'http',
        provider: 'github',
        verifier: { type: 'hmac', hmac: { secret: 'gh-secret' } },
        body_function: 'function transform(p) { return p }',
        header_function: 'function transform(h) { return h }',
        custom_response: { body: 'ok', content_type: 'text/plain' },
      })
    ).body.data;
    const put = (body: unknown) =>
      h.call('PUT', `/v1/projects/${p.id}/sources/${s.uid}`, { key: p.key, body });
    // null, as Convoy's clients send an unset field, keeps the stored value
    const kept = await put({
      provider: null,
      body_function: null,
      header_function: null,
      custom_response: null,
    });
    expect(kept.status).toBe(202);
    expect(kept.body.data).toMatchObject({
      provider: 'github',
      body_function: 'function transform(p) { return p }',
      custom_response: { body: 'ok' },
    });
    const emptied = await put({ clear: ['provider', 'body_function', 'header_function', 'custom_response'] });
    expect(emptied.status).toBe(202);
    expect(emptied.body.data).toMatchObject({
      provider: null,
      body_function: null,
      header_function: null,
      custom_response: null,
      verifier: { type: 'hmac' },
    });
    const both = await put({ body_function: 'function transform(p) { return p }', clear: ['body_function'] });
    expect(both.status).toBe(400);
    expect(both.body.data.errors[0].field).toBe('clear');
    expect((await put({ clear: ['verifier'] })).status).toBe(400);
  });

  it("takes convoy-go's POST as the same update: the change reads back, a bad body is the same 400", async () => {
    const s = (await create({ name: 'sdk-update', type: 'http' })).body.data;
    const res = await h.call('POST', `/v1/projects/${p.id}/sources/${s.uid}`, {
      key: p.key,
      body: { name: 'sdk-updated', forward_headers: ['X-Sdk'] },
    });
    expect(res.status).toBe(202);
    const read = await h.call('GET', `/v1/projects/${p.id}/sources/${s.uid}`, { key: p.key });
    expect(read.body.data).toMatchObject({
      name: 'sdk-updated',
      forward_headers: ['X-Sdk'],
      mask_id: s.mask_id,
    });
    const viaPost = await h.call('POST', `/v1/projects/${p.id}/sources/${s.uid}`, {
      key: p.key,
      body: { type: 'pub_sub' },
    });
    const viaPut = await h.call('PUT', `/v1/projects/${p.id}/sources/${s.uid}`, {
      key: p.key,
      body: { type: 'pub_sub' },
    });
    expect(viaPost.status).toBe(400);
    expect(viaPost.body).toEqual(viaPut.body);
  });

  it("keeps projects apart: another project's source is 404, another project's path 403", async () => {
    const other = await h.createProject('incoming');
    const mine = (await create({ name: 'mine', type: 'http' })).body.data;
    expect(
      (await h.call('GET', `/v1/projects/${other.id}/sources/${mine.uid}`, { key: other.key })).status,
    ).toBe(404);
    expect(
      (
        await h.call('PUT', `/v1/projects/${other.id}/sources/${mine.uid}`, {
          key: other.key,
          body: { is_disabled: true },
        })
      ).status,
    ).toBe(404);
    expect(
      (await h.call('DELETE', `/v1/projects/${other.id}/sources/${mine.uid}`, { key: other.key })).status,
    ).toBe(404);
    expect((await h.call('GET', `/v1/projects/${p.id}/sources/${mine.uid}`, { key: other.key })).status).toBe(
      403,
    );
    expect((await create({ name: 'intruder', type: 'http' }, other.key)).status).toBe(403);
    const theirs = await h.call('GET', `/v1/projects/${other.id}/sources`, { key: other.key });
    expect(theirs.body.data.content).toEqual([]);
    expect(
      (await h.call('GET', `/v1/projects/${p.id}/sources/${mine.uid}`, { key: p.key })).body.data.is_disabled,
    ).toBe(false);
  });

  it('lists sources across pages and deletes one', async () => {
    const q = await h.createProject('incoming');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push((await create({ name: `s${i}`, type: 'http' }, q.key, q.id)).body.data.uid);
    const seen: string[] = [];
    let cursor = '';
    for (let pageNo = 0; pageNo < 3; pageNo++) {
      const res = await h.call(
        'GET',
        `/v1/projects/${q.id}/sources?perPage=2&sort=ASC${cursor && `&next_page_cursor=${cursor}`}`,
        { key: q.key },
      );
      seen.push(...res.body.data.content.map((s: { uid: string }) => s.uid));
      expect(res.body.data.pagination.has_next_page).toBe(pageNo < 2);
      cursor = res.body.data.pagination.next_page_cursor;
    }
    expect(seen).toEqual(ids);
    const back = await h.call(
      'GET',
      `/v1/projects/${q.id}/sources?perPage=2&sort=ASC&direction=prev&prev_page_cursor=${ids[4]}`,
      { key: q.key },
    );
    expect(back.body.data.content.map((s: { uid: string }) => s.uid)).toEqual([ids[2], ids[3]]);

    expect((await h.call('DELETE', `/v1/projects/${q.id}/sources/${ids[0]}`, { key: q.key })).status).toBe(
      200,
    );
    expect((await h.call('GET', `/v1/projects/${q.id}/sources/${ids[0]}`, { key: q.key })).status).toBe(404);
    expect((await h.call('DELETE', `/v1/projects/${q.id}/sources/${ids[0]}`, { key: q.key })).status).toBe(
      404,
    );
  });
});
