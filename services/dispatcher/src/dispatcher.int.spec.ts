import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { exportJWK, generateKeyPair } from 'jose';
import { newId, type ProjectId } from '@hookrail/domain';
import type { RetryMessage } from '@hookrail/bus';
import { deliveryId } from '@hookrail/routing';
import type { RunningService } from '@hookrail/runtime';
import type { Store } from '@hookrail/store';
import {
  connectTestStore,
  makeTestCerts,
  startOAuth2Server,
  startReceiver,
  startTestService,
  testBus,
  testConfig,
  uniquePrefix,
  waitFor,
  type OAuth2Server,
  type Receiver,
  eventDoc,
  eventMessage,
  makeDelivery,
  makeEndpoint,
  makeProject,
  makeSubscription,
} from '@hookrail/testkit';
import { definition } from './service';

const SWH_SECRET = 'whsec_' + Buffer.from('standard-webhooks-key-0123456789').toString('base64');

describe('dispatcher routes, signs, authenticates and delivers to real receivers', () => {
  const prefix = uniquePrefix('dispatch');
  const bus = testBus(prefix);
  const certs = makeTestCerts();
  const closers: { close(): Promise<void> }[] = [];
  const retries: RetryMessage[] = [];
  let store: Store;
  let dispatcher: RunningService;

  beforeAll(async () => {
    store = await connectTestStore();
    dispatcher = await startTestService(
      definition(testConfig('dispatcher', { HOOKRAIL_KAFKA_TOPIC_PREFIX: prefix }), { trustedCa: certs.ca }),
    );
    await bus.consume('test-retries', { topic: 'retries', handle: async (m) => void retries.push(m) });
  });
  afterAll(async () => {
    await dispatcher?.stop();
    await Promise.all(closers.map((c) => c.close()));
    await bus.close();
    await store?.close();
  });

  const receiver = async (opts: Parameters<typeof startReceiver>[0] = {}): Promise<Receiver> => {
    const r = await startReceiver(opts);
    closers.push(r);
    return r;
  };
  const publish = async (...ms: ReturnType<typeof eventMessage>[]) =>
    (await bus.connectPublisher()).publish('events', ms);
  const deliveriesOf = (projectId: ProjectId, eventId: string) =>
    store.deliveries.listByEvents(projectId, [eventId]);

  it('delivers with the documented headers, simple and Standard Webhooks signatures over the exact bytes, and records the attempt', async () => {
    const projectId = await makeProject(store, {
      signature: {
        header: 'X-Hookrail-Signature',
        versions: [{ hash: 'SHA512', encoding: 'base64' }],
        standard_webhooks: true,
      },
    });
    const rec = await receiver();
    const now = new Date();
    const ep = await makeEndpoint(store, projectId, {
      url: `${rec.url}/hook`,
      secrets: [
        {
          uid: newId(),
          value: SWH_SECRET,
          created_at: now,
          updated_at: now,
          deleted_at: null,
          expires_at: null,
        },
      ],
    });
    const sourceId = newId();
    await makeSubscription(store, projectId, { endpoint_id: ep._id, source_id: sourceId });
    const m = eventMessage(projectId, {
      source_id: sourceId,
      idempotency_key: 'idem-1',
      forward_headers: { 'X-Forwarded-Thing': 'yes', 'Content-Type': 'text/evil' },
    });
    await publish(m);

    const req = (await waitFor('request received', () => rec.requests[0]))!;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/hook');
    expect(JSON.parse(req.body)).toEqual(m.data);
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['user-agent']).toMatch(/^Hookrail\//);
    expect(req.headers['x-hookrail-event-id']).toBe(m.event_id);
    expect(req.headers['x-hookrail-event-type']).toBe('invoice.paid');
    expect(req.headers['x-hookrail-idempotency-key']).toBe('idem-1');
    expect(req.headers['x-forwarded-thing']).toBe('yes');
    expect(req.headers['x-hookrail-signature']).toBe(
      createHmac('sha512', SWH_SECRET).update(req.rawBody).digest('base64'),
    );
    expect(new Webhook(SWH_SECRET).verify(req.rawBody.toString('utf8'), req.headers)).toEqual(m.data);

    const [d] = await waitFor('delivery succeeded', async () => {
      const ds = await deliveriesOf(projectId, m.event_id);
      return ds.length === 1 && ds[0].status === 'Success' ? ds : undefined;
    });
    expect(req.headers['x-hookrail-delivery-id']).toBe(d._id);
    expect(req.headers['webhook-id']).toBe(d._id);
    expect(d.attempts).toHaveLength(1);
    expect(d.attempts[0]).toMatchObject({ http_status: 200, response_data: 'ok', error: null });
    expect(JSON.parse(d.attempts[0].request_headers_json)['X-Hookrail-Event-Id']).toBe(m.event_id);
    await waitFor(
      'event Success',
      async () => (await store.events.findById(projectId, m.event_id))?.status === 'Success',
    );
  });

  it('sends the first sends of endpoints whose deliveries partition it owns itself, not through the topic', async () => {
    const projectId = await makeProject(store);
    const rec = await receiver();
    const ep = await makeEndpoint(store, projectId, { url: `${rec.url}/own` });
    const sourceId = newId();
    await makeSubscription(store, projectId, { endpoint_id: ep._id, source_id: sourceId });
    const firstSends = async (path: 'local' | 'published') => {
      const text = await fetch(`${dispatcher.url}/metrics`).then((r) => r.text());
      const line = new RegExp(`^hookrail_first_sends_total\\{[^}]*path="${path}"[^}]*\\} (\\d+)`, 'm');
      return Number(line.exec(text)?.[1] ?? 0);
    };
    // The only dispatcher owns every deliveries partition once it has joined the sender group.
    const before = await firstSends('local');
    const sent: string[] = [];
    await waitFor(
      'a first send made by the router process itself',
      async () => {
        const m = eventMessage(projectId, { source_id: sourceId });
        sent.push(m.event_id);
        await publish(m);
        await waitFor('received', () =>
          rec.requests.find((r) => r.headers['x-hookrail-event-id'] === m.event_id),
        );
        return (await firstSends('local')) > before || undefined;
      },
      { timeoutMs: 30_000 },
    );
    // Recorded like any first send: one Success delivery with its attempt.
    const last = sent[sent.length - 1];
    const [d] = await waitFor('delivery recorded', async () => {
      const ds = await deliveriesOf(projectId, last);
      return ds.length === 1 && ds[0].status === 'Success' ? ds : undefined;
    });
    expect(d.attempts).toHaveLength(1);
  });

  it('advanced signatures carry every unexpired secret during a rollover and the receiver verifies either', async () => {
    const projectId = await makeProject(store);
    const rec = await receiver();
    const now = Date.now();
    const secret = (value: string, created: number, expires: number | null) => ({
      uid: newId(),
      value,
      created_at: new Date(created),
      updated_at: new Date(created),
      deleted_at: null,
      expires_at: expires ? new Date(expires) : null,
    });
    const ep = await makeEndpoint(store, projectId, {
      url: rec.url,
      advanced_signatures: true,
      secrets: [
        secret('expired', now - 90_000, now - 1000),
        secret('old', now - 60_000, now + 3600_000),
        secret('new', now - 1000, null),
      ],
    });
    const sourceId = newId();
    await makeSubscription(store, projectId, { endpoint_id: ep._id, source_id: sourceId });
    await publish(eventMessage(projectId, { source_id: sourceId }));
    const req = (await waitFor('request', () => rec.requests[0]))!;
    const header = req.headers['x-hookrail-signature'];
    const [tPart, ...sigs] = header.split(',');
    const t = tPart.replace('t=', '');
    expect(Math.abs(Number(t) - now / 1000)).toBeLessThan(30);
    const expected = (k: string) =>
      'v1=' + createHmac('sha256', k).update(`${t},`).update(req.rawBody).digest('hex');
    expect(sigs).toEqual([expected('old'), expected('new')]);
  });

  it('filters by event type, body and headers, transforms with the subscription function, and records unmatched events', async () => {
    const projectId = await makeProject(store);
    const rec = await receiver();
    const ep = await makeEndpoint(store, projectId, { url: rec.url });
    const sourceId = newId();
    await makeSubscription(
      store,
      projectId,
      { endpoint_id: ep._id, source_id: sourceId },
      { event_types: ['user.*'] },
    );
    await makeSubscription(
      store,
      projectId,
      { endpoint_id: ep._id, source_id: sourceId },
      { body: { amount: { $lt: 10 } } },
    );
    await makeSubscription(
      store,
      projectId,
      {
        endpoint_id: ep._id,
        source_id: sourceId,
        function: 'function transform(p) { p.doubled = p.amount * 2; delete p.customer; return p; }',
      },
      {
        event_types: ['invoice.*'],
        body: { 'customer.tier': { $in: ['gold'] } },
        headers: { 'x-region': 'eu' },
      },
    );
    const hit = eventMessage(projectId, { source_id: sourceId, headers: { 'x-region': 'eu' } });
    const miss = eventMessage(projectId, { source_id: sourceId, headers: { 'x-region': 'us' } });
    await publish(hit, miss);

    const req = (await waitFor('transformed request', () => rec.requests[0]))!;
    expect(JSON.parse(req.body)).toEqual({ amount: 42, doubled: 84 });
    const unmatched = await waitFor('unmatched event stored', () =>
      store.events.findById(projectId, miss.event_id),
    );
    expect(unmatched).toMatchObject({
      status: 'Failure',
      status_reason: `the filters of all 2 subscriptions for source ${sourceId} rejected the event`,
    });
    // the delivery is recorded with its attempt, just after the request went out
    await waitFor(
      'hit delivery recorded',
      async () => (await deliveriesOf(projectId, hit.event_id)).length > 0,
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(await deliveriesOf(projectId, hit.event_id)).toHaveLength(1);
    expect(rec.count()).toBe(1);
  });

  it('stores a repeated idempotency key as a duplicate and never delivers it; redelivered messages create nothing twice', async () => {
    const projectId = await makeProject(store);
    const rec = await receiver();
    const ep = await makeEndpoint(store, projectId, { url: rec.url });
    const sourceId = newId();
    await makeSubscription(store, projectId, { endpoint_id: ep._id, source_id: sourceId });
    const first = eventMessage(projectId, { source_id: sourceId, idempotency_key: 'same' });
    const second = eventMessage(projectId, { source_id: sourceId, idempotency_key: 'same' });
    // The repeat arrives after the original was routed (as a sender's retry does): the first event
    // routed with a key is the original (docs/decisions.md, "Routing and delivery").
    await publish(first, first);
    await waitFor('original stored', () => store.events.findById(projectId, first.event_id));
    await publish(second);
    const dup = await waitFor('duplicate stored', () => store.events.findById(projectId, second.event_id));
    expect(dup).toMatchObject({ is_duplicate_event: true, status: 'Success' });
    await waitFor(
      'original delivered',
      async () => (await store.events.findById(projectId, first.event_id))?.status === 'Success',
    );
    expect(await store.deliveries.count(projectId)).toBe(1);
    await new Promise((r) => setTimeout(r, 300));
    expect(rec.count()).toBe(1);
  });

  it('records a failed attempt with the response and hands the delivery to the retries topic', async () => {
    const projectId = await makeProject(store);
    const rec = await receiver({
      respond: () => ({ status: 503, headers: { 'retry-after': '120' }, body: 'busy' }),
    });
    const ep = await makeEndpoint(store, projectId, { url: rec.url });
    const sourceId = newId();
    await makeSubscription(store, projectId, { endpoint_id: ep._id, source_id: sourceId });
    const m = eventMessage(projectId, { source_id: sourceId });
    await publish(m);
    const [d] = await waitFor('delivery in Retry', async () => {
      const ds = await deliveriesOf(projectId, m.event_id);
      return ds[0]?.status === 'Retry' ? ds : undefined;
    });
    expect(d.attempts[0]).toMatchObject({ http_status: 503, response_data: 'busy' });
    expect(d.retries_used).toBe(1);
    expect(d.next_attempt_at!.getTime() - Date.now()).toBeGreaterThan(100_000);
    const retry = await waitFor('retry message', () => retries.find((r) => r.delivery_id === d._id));
    expect(retry).toMatchObject({ reason: 'failed', endpoint_id: ep._id });
    await waitFor(
      'event Retry',
      async () => (await store.events.findById(projectId, m.event_id))?.status === 'Retry',
    );
    expect(rec.count()).toBe(1);
  });

  it('waits for the event of a retry that the router has not stored yet, rather than discarding the delivery', async () => {
    const projectId = await makeProject(store);
    const rec = await receiver();
    const ep = await makeEndpoint(store, projectId, { url: rec.url });
    const sub = await makeSubscription(store, projectId, { endpoint_id: ep._id, source_id: newId() });
    // What a database crash can leave: the first attempt's Retry recorded, the event's write not yet.
    const event = eventDoc(projectId, { raw: '{"late":true}' });
    const d = await makeDelivery(store, projectId, {
      event_id: event._id,
      endpoint_id: ep._id,
      subscription_id: sub._id,
      status: 'Retry',
      attempts_made: 1,
      retries_used: 1,
    });
    await (
      await bus.connectPublisher()
    ).publish('deliveries', [
      {
        delivery_id: d._id,
        project_id: projectId,
        endpoint_id: ep._id,
        event_id: event._id,
        reason: 'retry',
      },
    ]);
    await new Promise((r) => setTimeout(r, 1500));
    expect(rec.count()).toBe(0);
    expect((await store.deliveries.findById(projectId, d._id))?.status).toBe('Retry');

    await store.events.insertManyIfAbsent([event]);
    const req = await waitFor('the retry sent once its event is stored', () => rec.requests[0]);
    expect(req.body).toBe('{"late":true}');
    expect(req.headers['x-hookrail-delivery-id']).toBe(d._id);
    await waitFor(
      'delivery Success',
      async () => (await store.deliveries.findById(projectId, d._id))?.status === 'Success',
    );
  });

  it('at_most_once fails a delivery whose request reached the endpoint instead of retrying', async () => {
    const projectId = await makeProject(store);
    const rec = await receiver({ fail: 10 });
    const ep = await makeEndpoint(store, projectId, { url: rec.url });
    const sourceId = newId();
    await makeSubscription(store, projectId, {
      endpoint_id: ep._id,
      source_id: sourceId,
      delivery_mode: 'at_most_once',
    });
    const m = eventMessage(projectId, { source_id: sourceId });
    await publish(m);
    await waitFor(
      'delivery Failure',
      async () => (await deliveriesOf(projectId, m.event_id))[0]?.status === 'Failure',
    );
  });

  it('at_most_once never sends a first send again whose delivery was already Processing (a sender died mid-send)', async () => {
    const projectId = await makeProject(store);
    const rec = await receiver();
    const ep = await makeEndpoint(store, projectId, { url: rec.url });
    const sourceId = newId();
    const sub = await makeSubscription(store, projectId, {
      endpoint_id: ep._id,
      source_id: sourceId,
      delivery_mode: 'at_most_once',
    });
    const m = eventMessage(projectId, { source_id: sourceId });
    // what the earlier attempt left: the durable Processing marker, written before its request
    const id = deliveryId(m.event_id, sub._id, Date.parse(m.accepted_at));
    await makeDelivery(store, projectId, {
      _id: id,
      event_id: m.event_id,
      endpoint_id: ep._id,
      subscription_id: sub._id,
      delivery_mode: 'at_most_once',
      status: 'Processing',
    });
    await publish(m);
    const d = await waitFor('delivery Failure', async () => {
      const [found] = await deliveriesOf(projectId, m.event_id);
      return found?.status === 'Failure' ? found : undefined;
    });
    expect(d).toMatchObject({
      _id: id,
      status_reason: 'interrupted while sending (at_most_once: not sent again)',
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(rec.count()).toBe(0);
  });

  it('authenticates with api_key, basic_auth and oauth2 (real token endpoint), fetching one token per endpoint', async () => {
    const projectId = await makeProject(store);
    const rec = await receiver();
    const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
    const oauth: OAuth2Server = await startOAuth2Server({
      clientId: 'cid',
      publicJwk: { ...(await exportJWK(publicKey)), alg: 'ES256' },
    });
    closers.push(oauth);
    const sourceId = newId();
    const auths = [
      { type: 'api_key', api_key: { header_name: 'X-Api-Key', header_value: 'k-123' } },
      { type: 'basic_auth', basic_auth: { username: 'u', password: 'p@ss' } },
      {
        type: 'oauth2',
        oauth2: {
          url: `${oauth.url}/token`,
          client_id: 'cid',
          authentication_type: 'client_assertion',
          signing_algorithm: 'ES256',
          signing_key: await exportJWK(privateKey),
        },
      },
    ];
    for (const [i, authentication] of auths.entries()) {
      const ep = await makeEndpoint(store, projectId, { url: `${rec.url}/${i}`, authentication });
      await makeSubscription(store, projectId, { endpoint_id: ep._id, source_id: sourceId });
    }
    await publish(...Array.from({ length: 3 }, () => eventMessage(projectId, { source_id: sourceId })));
    await waitFor('9 requests', () => rec.count() >= 9);
    const byPath = (p: string) => rec.requests.filter((r) => r.path === p);
    expect(byPath('/0').every((r) => r.headers['x-api-key'] === 'k-123')).toBe(true);
    expect(
      byPath('/1').every(
        (r) => r.headers.authorization === `Basic ${Buffer.from('u:p@ss').toString('base64')}`,
      ),
    ).toBe(true);
    expect(oauth.issued).toHaveLength(1);
    expect(byPath('/2').every((r) => r.headers.authorization === `Bearer ${oauth.issued[0]}`)).toBe(true);
    // Credentials are not kept in stored attempts.
    const ds = await store.deliveries.list(projectId, {}, 1000);
    expect(ds.map((d) => d.attempts[0]?.request_headers_json ?? '').join()).not.toMatch(
      /k-123|Bearer [0-9a-f]/,
    );
  });

  it('presents the endpoint client certificate to a TLS receiver that requires one', async () => {
    const projectId = await makeProject(store);
    const rec = await receiver({ tls: { ...certs.server, ca: certs.ca }, requireClientCert: true });
    const sourceId = newId();
    const withCert = await makeEndpoint(store, projectId, {
      url: `${rec.url}/mtls`,
      mtls_client_cert: { client_cert: certs.client.cert, client_key: certs.client.key },
    });
    const without = await makeEndpoint(store, projectId, { url: `${rec.url}/none` });
    await makeSubscription(store, projectId, { endpoint_id: withCert._id, source_id: sourceId });
    await makeSubscription(store, projectId, { endpoint_id: without._id, source_id: sourceId });
    const m = eventMessage(projectId, { source_id: sourceId });
    await publish(m);
    const req = (await waitFor('mTLS request', () => rec.requests[0]))!;
    expect(req.path).toBe('/mtls');
    expect(req.clientCertCN).toBe(certs.client.cn);
    const failed = await waitFor('no-cert delivery failed', async () =>
      (await store.deliveries.list(projectId, { endpointIds: [without._id] }, 1000)).find(
        (d) => d.status === 'Retry',
      ),
    );
    expect(failed.attempts[0].error).toBeTruthy();
    expect(rec.count()).toBe(1);
  });

  it('holds deliveries to a paused endpoint and discards new ones to an inactive endpoint', async () => {
    const projectId = await makeProject(store);
    const rec = await receiver();
    const sourceId = newId();
    const paused = await makeEndpoint(store, projectId, { url: rec.url, status: 'paused' });
    const inactive = await makeEndpoint(store, projectId, { url: rec.url, status: 'inactive' });
    await makeSubscription(store, projectId, { endpoint_id: paused._id, source_id: sourceId });
    await makeSubscription(store, projectId, { endpoint_id: inactive._id, source_id: sourceId });
    const m = eventMessage(projectId, { source_id: sourceId });
    await publish(m);
    const held = await waitFor('held', async () =>
      (await store.deliveries.list(projectId, { endpointIds: [paused._id] }, 1000)).find((d) =>
        d.status_reason?.startsWith('held'),
      ),
    );
    expect(held).toMatchObject({ status: 'Scheduled', attempts_made: 0, retries_used: 0 });
    expect(await waitFor('hold retry', () => retries.find((r) => r.delivery_id === held._id))).toMatchObject({
      reason: 'paused',
    });
    const [discarded] = await store.deliveries.list(projectId, { endpointIds: [inactive._id] }, 1000);
    expect(discarded.status).toBe('Discarded');
    expect(rec.count()).toBe(0);
  });
});
