import { Webhook } from 'standardwebhooks';
import { newId } from '@hookrail/domain';
import type { RunningService } from '@hookrail/runtime';
import {
  TEST_BROKERS,
  makeDelivery,
  makeEvent,
  pubsubSubscription,
  startOAuth2Server,
  startReceiver,
  startTestService,
  testConfig,
  waitFor,
  type OAuth2Server,
  type Receiver,
  type RecordedRequest,
} from '@hookrail/testkit';
import { definition as dispatcher } from '../../dispatcher/src/service';
import { ADMIN_KEY, GatewayHarness, type ApiResponse } from './testing/gateway-harness';
import {
  DeliveryAttemptResponse,
  EndpointResponse,
  EventDeliveryResponse,
  EventResponse,
  MetaEventResponse,
  PortalLinkResponse,
  ProjectResponse,
  SourceResponse,
  SubscriptionResponse,
  listOf,
} from './testing/convoy-compat/convoy-models';
import {
  createEndpointRequest,
  createEventRequest,
  createFanoutEventRequest,
  createSourceRequest,
  createSubscriptionRequest,
  endpointParams,
  eventDeliveryParams,
  eventParams,
  goQuery,
  listParams,
  portalLinkRequest,
  rollSecretRequest,
  subscriptionParams,
} from './testing/convoy-compat/convoy-sdk';
import { convoyVerify } from './testing/convoy-compat/convoy-verifier';
import {
  GenDeliveryAttempt,
  GenEndpoint,
  GenEvent,
  GenEventDelivery,
  GenEventType,
  GenMetaEvent,
  GenPortalLink,
  GenCreateProjectResponse,
  GenProject,
  GenSource,
  GenSubscription,
  genPage,
} from './testing/convoy-compat/convoy-go-generated-models';
import { goDecode, slice, type GoType } from './testing/convoy-compat/go-decode';

jest.setTimeout(120_000);

/**
 * A program written against Convoy's Go SDK, pointed at Hookrail: every request is the exact JSON
 * and query string convoy-go sends, every answer is decoded as its Go types would decode it, and
 * every delivery is verified the way its `webhook.go` verifier does.
 */
describe('Convoy clients work unchanged against the gateway', () => {
  const h = new GatewayHarness();
  let dp: RunningService;
  let receiver: Receiver;
  const servers: OAuth2Server[] = [];

  beforeAll(async () => {
    // a Google Pub/Sub source is checked against the emulator (the generated client's test)
    await h.start({ PUBSUB_EMULATOR_HOST: TEST_BROKERS.pubsubEmulatorHost });
    dp = await startTestService(
      dispatcher(testConfig('dispatcher', { HOOKRAIL_KAFKA_TOPIC_PREFIX: h.prefix })),
    );
    receiver = await startReceiver();
  });
  afterAll(async () => {
    for (const s of servers) await s.close();
    await receiver?.close();
    await dp?.stop();
    await h.stop();
  });

  /** The SDK's response handling: the envelope says ok, and `data` decodes into the Go type. */
  function decode<T extends GoType>(type: T, res: ApiResponse, status: number) {
    if (res.status !== status) throw new Error(`answered ${res.status}: ${JSON.stringify(res.body)}`);
    expect(res.body.status).toBe(true);
    return goDecode(type, res.body.data);
  }

  const to = (path: string) => receiver.requests.filter((r) => r.path === path);
  const arrived = (path: string, n = 1) =>
    waitFor(`${n} request(s) at ${path}`, () => (to(path).length >= n ? to(path)[n - 1] : undefined));

  async function project(config: Record<string, unknown> = {}, type: 'incoming' | 'outgoing' = 'outgoing') {
    const p = await h.createProject(type, config);
    const base = `/v1/projects/${p.id}`;
    const call = (method: string, path: string, body?: unknown) =>
      h.call(method, `${base}${path}`, { key: p.key, body });
    return { ...p, base, call };
  }

  it('endpoints: create, find (9), update, list by ownerId, pause, activate, is_disabled, roll secret (10), delete', async () => {
    const p = await project();
    const acme = decode(
      EndpointResponse,
      await p.call(
        'POST',
        '/endpoints',
        createEndpointRequest({
          name: 'acme',
          url: `${receiver.url}/acme`,
          ownerId: 'acme',
          description: 'first',
        }),
      ),
      201,
    );
    expect(acme).toMatchObject({
      owner_id: 'acme',
      status: 'active',
      is_disabled: false,
      advanced_signatures: false,
    });
    expect(acme.secrets[0].value.length).toBeGreaterThan(20); // generated: the SDK left secret out
    const other = decode(
      EndpointResponse,
      await p.call(
        'POST',
        '/endpoints',
        createEndpointRequest({
          name: 'other',
          url: `${receiver.url}/other`,
          ownerId: 'other',
          isDisabled: true,
        }),
      ),
      201,
    );
    expect(other).toMatchObject({ status: 'inactive', is_disabled: true });

    // EndpointParams with only ownerId set: every other parameter arrives empty
    const byOwner = decode(
      listOf(EndpointResponse),
      await p.call('GET', `/endpoints${endpointParams({ ownerId: 'acme' })}`),
      200,
    );
    expect(byOwner.content.map((e) => e.uid)).toEqual([acme.uid]);
    const aliased = decode(listOf(EndpointResponse), await p.call('GET', '/endpoints?owner_id=other'), 200);
    expect(aliased.content.map((e) => e.uid)).toEqual([other.uid]);
    const all = decode(listOf(EndpointResponse), await p.call('GET', `/endpoints${endpointParams()}`), 200);
    expect(all.content.map((e) => e.uid).sort()).toEqual([acme.uid, other.uid].sort());
    const paged = decode(
      listOf(EndpointResponse),
      await p.call('GET', `/endpoints${endpointParams({}, listParams({ perPage: 1, sort: 'ASC' }))}`),
      200,
    );
    expect(paged.content).toHaveLength(1);
    expect(paged.pagination).toMatchObject({ per_page: 1, has_next_page: true });
    // an unknown filter is refused, never ignored (it would widen the list)
    const unknown = await p.call('GET', '/endpoints?ownerID=acme');
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain('ownerID');

    expect(decode(EndpointResponse, await p.call('GET', `/endpoints/${acme.uid}`), 200).uid).toBe(acme.uid);

    const updated = decode(
      EndpointResponse,
      await p.call(
        'PUT',
        `/endpoints/${acme.uid}`,
        createEndpointRequest({
          name: 'acme-2',
          url: `${receiver.url}/acme`,
          ownerId: 'acme',
          advancedSignatures: true,
        }),
      ),
      202,
    );
    expect(updated).toMatchObject({
      name: 'acme-2',
      advanced_signatures: true,
      description: 'first',
    });
    // is_disabled false re-enables a disabled endpoint
    const enabled = decode(
      EndpointResponse,
      await p.call(
        'PUT',
        `/endpoints/${other.uid}`,
        createEndpointRequest({ name: 'other', url: `${receiver.url}/other`, ownerId: 'other' }),
      ),
      202,
    );
    expect(enabled).toMatchObject({ status: 'active', is_disabled: false });

    // ...but not one the endpoint health checks disabled: the SDK sends is_disabled: false on every update
    await h.store.endpoints.update(p.id, other.uid, {
      status: 'inactive',
      status_reason: 'failing for 1 hour',
    });
    const stillOff = decode(
      EndpointResponse,
      await p.call(
        'PUT',
        `/endpoints/${other.uid}`,
        createEndpointRequest({ name: 'other', url: `${receiver.url}/other`, ownerId: 'other' }),
      ),
      202,
    );
    expect(stillOff).toMatchObject({ status: 'inactive', is_disabled: true });

    // Pause (PUT, no body); an SDK update (is_disabled: false) leaves it paused; Convoy's POST activate resumes
    expect(decode(EndpointResponse, await p.call('PUT', `/endpoints/${acme.uid}/pause`), 202).status).toBe(
      'paused',
    );
    await p.call(
      'PUT',
      `/endpoints/${acme.uid}`,
      createEndpointRequest({ name: 'acme-2', url: `${receiver.url}/acme`, ownerId: 'acme' }),
    );
    expect(decode(EndpointResponse, await p.call('GET', `/endpoints/${acme.uid}`), 200).status).toBe(
      'paused',
    );
    expect(
      decode(EndpointResponse, await p.call('POST', `/endpoints/${acme.uid}/activate`), 202).status,
    ).toBe('active');

    // RollSecret sends `secret: ""` (no omitempty): a new one is generated
    const rolled = decode(
      EndpointResponse,
      await p.call('PUT', `/endpoints/${acme.uid}/expire_secret`, rollSecretRequest(0)),
      200,
    );
    const live = rolled.secrets.filter((s) => !s.expires_at || Date.parse(s.expires_at) > Date.now());
    expect(live).toHaveLength(1);
    expect(live[0].value).not.toBe(acme.secrets[0].value);
    expect(live[0].value.length).toBeGreaterThan(20);

    expect((await p.call('DELETE', `/endpoints/${other.uid}`)).status).toBe(200);
  });

  it('refuses wrong types and fields Convoy does not have, with the field named', async () => {
    const p = await project();
    const body = createEndpointRequest({ name: 'x', url: `${receiver.url}/x` });
    for (const [patch, field] of [
      [{ advanced_signatures: 'yes' }, 'advanced_signatures'],
      [{ colour: null }, 'colour'],
      [{ is_disabled: 'no' }, 'is_disabled'],
      [{ authentication: { type: 'api_key', api_key: null } }, 'authentication.api_key'],
    ] as const) {
      const res = await p.call('POST', '/endpoints', { ...body, ...patch });
      expect(res.status).toBe(400);
      expect(res.body.status).toBe(false);
      expect(JSON.stringify(res.body)).toContain(`"field":"${field}"`);
    }
  });

  it('events from older Convoy clients: app_id (deprecated) names the endpoint', async () => {
    const p = await project();
    const ep = decode(
      EndpointResponse,
      await p.call(
        'POST',
        '/endpoints',
        createEndpointRequest({ name: 'legacy', url: `${receiver.url}/legacy` }),
      ),
      201,
    );
    const res = await p.call('POST', '/events', {
      app_id: ep.uid,
      event_type: 'legacy',
      data: {},
      custom_headers: null,
    });
    expect(res.status).toBe(201);
    expect(res.body.data.target).toEqual({ mode: 'single', endpoint_id: ep.uid });
    const missing = await p.call('POST', '/events', {
      app_id: '',
      endpoint_id: '',
      event_type: 'legacy',
      data: {},
    });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('invalid request body: endpoint_id is required');
  });

  it('sources: create (1) and update (2) with an unset provider and null verifier members', async () => {
    const p = await project({}, 'incoming');
    const hmac = { header: 'X-Sig', hash: 'SHA256', secret: 'source-secret', encoding: 'hex' };
    const created = decode(
      SourceResponse,
      await p.call(
        'POST',
        '/sources',
        createSourceRequest({ name: 'github', type: 'http', verifier: { type: 'hmac', hmac } }),
      ),
      201,
    );
    expect(created).toMatchObject({ provider: null, is_disabled: false, verifier: { type: 'hmac', hmac } });
    const noop = decode(
      SourceResponse,
      await p.call(
        'POST',
        '/sources',
        createSourceRequest({ name: 'open', type: 'http', verifier: { type: 'noop' } }),
      ),
      201,
    );
    expect(noop.verifier.type).toBe('noop');
    const updated = decode(
      SourceResponse,
      await p.call(
        'PUT',
        `/sources/${created.uid}`,
        createSourceRequest({
          name: 'github',
          type: 'http',
          isDisabled: true,
          verifier: { type: 'hmac', hmac },
        }),
      ),
      202,
    );
    expect(updated.is_disabled).toBe(true);
    decode(listOf(SourceResponse), await p.call('GET', `/sources${goQuery(listParams())}`), 200);
  });

  it('subscriptions: create (3), get (4), update (5) and list by endpointId', async () => {
    const p = await project();
    const ep = decode(
      EndpointResponse,
      await p.call('POST', '/endpoints', createEndpointRequest({ name: 'e', url: `${receiver.url}/sub` })),
      201,
    );
    const ep2 = decode(
      EndpointResponse,
      await p.call('POST', '/endpoints', createEndpointRequest({ name: 'e2', url: `${receiver.url}/sub2` })),
      201,
    );
    const sub = decode(
      SubscriptionResponse,
      await p.call('POST', '/subscriptions', createSubscriptionRequest({ name: 's', endpointId: ep.uid })),
      201,
    );
    expect(sub.endpoint_metadata.uid).toBe(ep.uid);
    await p.call(
      'POST',
      '/subscriptions',
      createSubscriptionRequest({ name: 's2', endpointId: ep2.uid, filter: null }),
    );
    expect(decode(SubscriptionResponse, await p.call('GET', `/subscriptions/${sub.uid}`), 200).name).toBe(
      's',
    );
    const updated = decode(
      SubscriptionResponse,
      await p.call(
        'PUT',
        `/subscriptions/${sub.uid}`,
        createSubscriptionRequest({
          name: 's-renamed',
          endpointId: ep.uid,
          alert: { count: 5, threshold: '1h' },
          retry: { type: 'linear', duration: '10s', retry_count: 3 },
          filter: { event_types: ['invoice.paid'] },
        }),
      ),
      202,
    );
    expect(updated).toMatchObject({
      name: 's-renamed',
      alert_config: { count: 5, threshold: '1h' },
      retry_config: { type: 'linear', duration: 10, retry_count: 3 },
      filter_config: { event_types: ['invoice.paid'] },
    });
    const list = decode(
      listOf(SubscriptionResponse),
      await p.call('GET', `/subscriptions${subscriptionParams({ endpointId: [ep.uid] })}`),
      200,
    );
    expect(list.content.map((s) => s.uid)).toEqual([sub.uid]);
    const none = decode(
      listOf(SubscriptionResponse),
      await p.call('GET', `/subscriptions${subscriptionParams()}`),
      200,
    );
    expect(none.content).toHaveLength(2);
  });

  it('portal links: create (6), get (7), update (8) with endpoints null and owner_id ""', async () => {
    const p = await project();
    const ep = decode(
      EndpointResponse,
      await p.call(
        'POST',
        '/endpoints',
        createEndpointRequest({ name: 'e', url: `${receiver.url}/pl`, ownerId: 'acme' }),
      ),
      201,
    );
    const link = decode(
      PortalLinkResponse,
      await p.call('POST', '/portal-links', portalLinkRequest({ name: 'acme', ownerId: 'acme' })),
      201,
    );
    expect(link).toMatchObject({ owner_id: 'acme', can_manage_endpoint: false, endpoint_count: 1 });
    expect(link.token.length).toBeGreaterThan(10);
    expect(
      decode(PortalLinkResponse, await p.call('GET', `/portal-links/${link.uid}`), 200).endpoints_metadata[0]
        .uid,
    ).toBe(ep.uid);
    const updated = decode(
      PortalLinkResponse,
      await p.call(
        'PUT',
        `/portal-links/${link.uid}`,
        portalLinkRequest({ name: 'acme-2', ownerId: 'acme', canManageEndpoint: true }),
      ),
      200,
    );
    expect(updated).toMatchObject({ name: 'acme-2', owner_id: 'acme', can_manage_endpoint: true });
    const list = decode(
      listOf(PortalLinkResponse),
      await p.call('GET', `/portal-links${goQuery({ ...listParams(), ownerId: 'acme' })}`),
      200,
    );
    expect(list.content.map((l) => l.uid)).toEqual([link.uid]);
  });

  it("oauth2 test (11) with the docs' body", async () => {
    const server = await startOAuth2Server({ clientId: 'c1', clientSecret: 'sec', expiresIn: 300 });
    servers.push(server);
    const p = await project();
    const res = await p.call('POST', '/endpoints/oauth2/test', {
      oauth2: {
        url: `${server.url}/token`,
        client_id: 'c1',
        client_secret: 'sec',
        authentication_type: 'shared_secret',
        grant_type: 'client_credentials',
        scope: '',
        audience: '',
        signing_algorithm: '',
        expiry_time_unit: 'seconds',
        signing_key: null,
        field_mapping: null,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ success: true, access_token: server.issued[0] });
  });

  it('events (13) and deliveries: sent as the SDK sends them, listed with its filters, verified as webhook.go verifies', async () => {
    const p = await project({
      signature: { header: 'X-Convoy-Signature', versions: [{ hash: 'SHA256', encoding: 'hex' }] },
    });
    const ep = decode(
      EndpointResponse,
      await p.call(
        'POST',
        '/endpoints',
        createEndpointRequest({ name: 'e', url: `${receiver.url}/ev`, ownerId: 'acme' }),
      ),
      201,
    );
    decode(
      SubscriptionResponse,
      await p.call('POST', '/subscriptions', createSubscriptionRequest({ name: 's', endpointId: ep.uid })),
      201,
    );
    const before = new Date(Date.now() - 60_000);

    const sent = await p.call(
      'POST',
      '/events',
      createEventRequest({ endpointId: ep.uid, eventType: 'invoice.paid', data: { amount: 10 } }),
    );
    expect(sent.status).toBe(201);
    const eventId = sent.body.data.uid as string;
    const req = await arrived('/ev');
    expect(JSON.parse(req.body)).toEqual({ amount: 10 });
    convoyVerify(req.rawBody, req.headers['x-convoy-signature'], { secret: ep.secrets[0].value });
    expect(() => convoyVerify(req.rawBody, req.headers['x-convoy-signature'], { secret: 'wrong' })).toThrow();

    const fanout = await p.call(
      'POST',
      '/events/fanout',
      createFanoutEventRequest({ ownerId: 'acme', eventType: 'invoice.sent', data: { n: 2 } }),
    );
    expect(fanout.status).toBe(201);
    convoyVerify((await arrived('/ev', 2)).rawBody, to('/ev')[1].headers['x-convoy-signature'], {
      secret: ep.secrets[0].value,
    });

    const event = await waitFor('the event stored', async () => {
      const res = await p.call('GET', `/events/${eventId}`);
      return res.status === 200 ? decode(EventResponse, res, 200) : undefined;
    });
    expect(event).toMatchObject({
      uid: eventId,
      event_type: 'invoice.paid',
      endpoints: [ep.uid],
      idempotency_key: '',
    });
    expect(Object.values(event.headers).every(Array.isArray)).toBe(true);

    const window = { startDate: before, endDate: new Date(Date.now() + 60_000) };
    const listed = decode(
      listOf(EventResponse),
      await p.call('GET', `/events${eventParams({ endpointId: [ep.uid], ...window })}`),
      200,
    );
    expect(listed.content.map((e) => e.uid)).toContain(eventId);
    const later = decode(
      listOf(EventResponse),
      await p.call('GET', `/events${eventParams({ startDate: new Date(Date.now() + 3_600_000) })}`),
      200,
    );
    expect(later.content).toEqual([]);
    const earlier = decode(
      listOf(EventResponse),
      await p.call('GET', `/events${eventParams({ endDate: before })}`),
      200,
    );
    expect(earlier.content).toEqual([]);

    const delivery = await waitFor('the delivery Success', async () => {
      const page = decode(
        listOf(EventDeliveryResponse),
        await p.call(
          'GET',
          `/eventdeliveries${eventDeliveryParams({ eventId, status: ['Success'], endpointId: [ep.uid], ...window })}`,
        ),
        200,
      );
      return page.content[0];
    });
    expect(delivery).toMatchObject({
      event_metadata: { uid: eventId, event_type: 'invoice.paid' },
      endpoint_metadata: { uid: ep.uid, owner_id: 'acme' },
      status: 'Success',
    });
    const none = decode(
      listOf(EventDeliveryResponse),
      await p.call(
        'GET',
        `/eventdeliveries${eventDeliveryParams({ eventId, status: ['Failure', 'Discarded'] })}`,
      ),
      200,
    );
    expect(none.content).toEqual([]);
    decode(EventDeliveryResponse, await p.call('GET', `/eventdeliveries/${delivery.uid}`), 200);
    const attempts = decode(
      slice(DeliveryAttemptResponse),
      await p.call('GET', `/eventdeliveries/${delivery.uid}/deliveryattempts`),
      200,
    );
    expect(attempts[0]).toMatchObject({
      http_status: '200',
      status: true,
      msg_id: delivery.uid,
      endpoint_id: ep.uid,
    });
  });

  it('list search and repeated filters as Convoy clients send them: q/query, several endpointId and sourceId, capped', async () => {
    const p = await project();
    const ep = async (name: string) =>
      decode(
        EndpointResponse,
        await p.call('POST', '/endpoints', createEndpointRequest({ name, url: `${receiver.url}/search` })),
        201,
      );
    const [orders, ordersEu, billing] = [
      await ep('Orders.v2'),
      await ep('orders.v2 (EU)'),
      await ep('Billing'),
    ];
    const uids = (page: { content: { uid: string }[] }) => page.content.map((x) => x.uid).sort();

    // endpoints: Convoy's server reads `q` (its OpenAPI, the generated client), convoy-go's wrapper
    // sends `query`; both search the name, ignoring case, the text taken literally
    const byQ = decode(listOf(EndpointResponse), await p.call('GET', '/endpoints?q=ORDERS.V2'), 200);
    expect(uids(byQ)).toEqual([orders.uid, ordersEu.uid].sort());
    const byWrapper = decode(
      listOf(EndpointResponse),
      await p.call('GET', `/endpoints${endpointParams({ query: '(eu)' })}`),
      200,
    );
    expect(uids(byWrapper)).toEqual([ordersEu.uid]);
    for (const pattern of ['.*', 'orders_v2', '%'])
      expect(
        decode(
          listOf(EndpointResponse),
          await p.call('GET', `/endpoints?q=${encodeURIComponent(pattern)}`),
          200,
        ).content,
      ).toEqual([]);
    const paged = decode(
      listOf(EndpointResponse),
      await p.call('GET', `/endpoints${endpointParams({ query: 'orders' }, listParams({ perPage: 1 }))}`),
      200,
    );
    expect(paged.content).toHaveLength(1);
    expect(paged.pagination.has_next_page).toBe(true);
    const rest = decode(
      listOf(EndpointResponse),
      await p.call(
        'GET',
        `/endpoints${endpointParams({ query: 'orders' }, listParams({ perPage: 1, next: paged.pagination.next_page_cursor }))}`,
      ),
      200,
    );
    expect(uids({ content: [...paged.content, ...rest.content] })).toEqual([orders.uid, ordersEu.uid].sort());

    // subscriptions of several endpoints (endpointId repeated)
    const sub = async (name: string, endpointId: string) =>
      decode(
        SubscriptionResponse,
        await p.call('POST', '/subscriptions', createSubscriptionRequest({ name, endpointId })),
        201,
      );
    const [s1, s2] = [
      await sub('s1', orders.uid),
      await sub('s2', ordersEu.uid),
      await sub('s3', billing.uid),
    ];
    const several = decode(
      listOf(SubscriptionResponse),
      await p.call('GET', `/subscriptions${subscriptionParams({ endpointId: [orders.uid, ordersEu.uid] })}`),
      200,
    );
    expect(uids(several)).toEqual([s1.uid, s2.uid].sort());

    // events of several sources (sourceId repeated, as Convoy's server reads it) and a payload search
    // (convoy-go's `query`); events as the router stores them from two sources
    const [srcA, srcB, srcC] = [newId(), newId(), newId()];
    const stored = [
      await makeEvent(h.store, p.id, { source_id: srcA, raw: '{"customer":"ACME Corp","total":10}' }),
      await makeEvent(h.store, p.id, { source_id: srcB, raw: '{"customer":"Globex","note":"acme"}' }),
      await makeEvent(h.store, p.id, { source_id: srcC, raw: '{"customer":"ACME Corp","total":30}' }),
    ];
    const events = (q: string) => p.call('GET', `/events${q}`);
    const twoSources = decode(listOf(EventResponse), await events(`?sourceId=${srcA}&sourceId=${srcB}`), 200);
    expect(uids(twoSources)).toEqual([stored[0]._id, stored[1]._id].sort());
    const oneSource = decode(listOf(EventResponse), await events(eventParams({ sourceId: srcC })), 200);
    expect(uids(oneSource)).toEqual([stored[2]._id]);
    const searched = decode(listOf(EventResponse), await events(eventParams({ query: 'acme CORP' })), 200);
    expect(uids(searched)).toEqual([stored[0]._id, stored[2]._id].sort());
    const searchedInSources = decode(
      listOf(EventResponse),
      await events(`?query=acme&sourceId=${srcB}&sourceId=${srcC}`),
      200,
    );
    expect(uids(searchedInSources)).toEqual([stored[1]._id, stored[2]._id].sort());

    // the batch operations take the same repeated filters (Convoy's generated client sends them)
    const replayed = await p.call('POST', `/events/batchreplay?sourceId=${srcA}&sourceId=${srcC}`);
    expect(replayed.status).toBe(200);
    expect(replayed.body.data.matched).toBe(2);
    for (const endpointId of [orders.uid, ordersEu.uid, billing.uid])
      await makeDelivery(h.store, p.id, {
        event_id: stored[0]._id,
        endpoint_id: endpointId,
        status: 'Failure',
      });
    const retried = await p.call(
      'PUT',
      `/eventdeliveries/batchretry?endpointId=${orders.uid}&endpointId=${ordersEu.uid}&status=Failure`,
    );
    expect(retried.status).toBe(200);
    expect(retried.body.data.matched).toBe(2);

    // caps and bad values: a 400 naming the parameter
    const ids = (name: string, n: number) => Array.from({ length: n }, () => `${name}=${newId()}`).join('&');
    for (const [path, param] of [
      [`/subscriptions?${ids('endpointId', 101)}`, 'endpointId'],
      [`/events?${ids('sourceId', 101)}`, 'sourceId'],
      [`/eventdeliveries?${ids('endpointId', 101)}`, 'endpointId'],
      [`/events/batchreplay?${ids('sourceId', 101)}`, 'sourceId'],
      ['/eventdeliveries?status=Success&status=Bogus', 'status'],
      [`/endpoints?q=${'x'.repeat(201)}`, 'q'],
      ['/sources?q=orders', 'q'],
      ['/subscriptions?query=s1', 'query'],
    ]) {
      const res = await p.call(path.includes('batch') ? 'POST' : 'GET', path);
      expect([path, res.status]).toEqual([path, 400]);
      expect(res.body.data.errors.map((e: { field: string }) => e.field)).toContain(param);
    }
    const bogus = await p.call('GET', '/eventdeliveries?status=Success&status=Bogus');
    expect(bogus.body.message).toContain('status "Bogus" must be one of');
    // 100 values are fine
    expect((await p.call('GET', `/subscriptions?${ids('endpointId', 100)}`)).status).toBe(200);
  });

  it("convoy-go's generated client (client.gen.go): its requests are accepted, every answer decodes into its models", async () => {
    // oapi-codegen's models: every field a pointer with omitempty, so only what is set is sent
    const out = await project({ signature: { header: 'X-Convoy-Signature' } });
    const ep = decode(
      GenEndpoint,
      await out.call('POST', '/endpoints', {
        name: 'gen',
        url: `${receiver.url}/gen`,
        owner_id: 'acme',
        http_timeout: 30,
        rate_limit: 100,
        rate_limit_duration: 60,
        content_type: 'application/json',
        advanced_signatures: true,
        authentication: { type: 'api_key', api_key: { header_name: 'X-Key', header_value: 'k' } },
      }),
      201,
    );
    expect(ep).toMatchObject({ http_timeout: 30, rate_limit_duration: 60, owner_id: 'acme' });
    decode(
      GenEndpoint,
      await out.call('PUT', `/endpoints/${ep.uid}`, { name: 'gen-2', is_disabled: false }),
      202,
    );
    decode(genPage(GenEndpoint), await out.call('GET', '/endpoints?perPage=10&q=gen'), 200);
    const sub = decode(
      GenSubscription,
      await out.call('POST', '/subscriptions', {
        name: 'gen',
        endpoint_id: ep.uid,
        delivery_mode: 'at_least_once',
        alert_config: { count: 3, threshold: '1h' },
        rate_limit_config: { count: 10, duration: 60 },
        filter_config: {
          event_types: ['invoice.paid'],
          filter: { body: { amount: { $gte: 1 } }, headers: {} },
        },
      }),
      201,
    );
    decode(
      GenSubscription,
      await out.call('PUT', `/subscriptions/${sub.uid}`, {
        retry_config: { type: 'linear', duration: '10s', retry_count: 3 },
      }),
      202,
    );
    decode(genPage(GenSubscription), await out.call('GET', `/subscriptions?endpointId=${ep.uid}`), 200);
    const link = decode(
      GenPortalLink,
      await out.call('POST', '/portal-links', { name: 'gen', owner_id: 'acme', can_manage_endpoint: true }),
      201,
    );
    decode(genPage(GenPortalLink), await out.call('GET', '/portal-links?ownerId=acme'), 200);
    expect(link.endpoint_count).toBe(1);

    const sent = await out.call('POST', '/events', {
      endpoint_id: ep.uid,
      event_type: 'invoice.paid',
      data: { amount: 5 },
      custom_headers: { 'X-Trace': 't' },
    });
    expect(sent.status).toBe(201);
    const eventId = sent.body.data.uid as string;
    const event = await waitFor('the event stored', async () => {
      const res = await out.call('GET', `/events/${eventId}`);
      return res.status === 200 ? decode(GenEvent, res, 200) : undefined;
    });
    expect(event.data).toEqual({ amount: 5 });
    decode(genPage(GenEvent), await out.call('GET', `/events?query=invoice&endpointId=${ep.uid}`), 200);
    const delivery = await waitFor('the delivery Success', async () => {
      const page = decode(
        genPage(GenEventDelivery),
        await out.call('GET', `/eventdeliveries?eventId=${eventId}&status=Success`),
        200,
      );
      return page.content[0];
    });
    expect(delivery.event_metadata).toMatchObject({ uid: eventId, event_type: 'invoice.paid' });
    const attempts = decode(
      slice(GenDeliveryAttempt),
      await out.call('GET', `/eventdeliveries/${delivery.uid}/deliveryattempts`),
      200,
    );
    expect(attempts[0]).toMatchObject({ http_status: '200', status: true });

    // sources: an http source with a verifier, and a Google Pub/Sub source whose key file arrives as
    // Go marshals a []byte: base64 text
    const inc = await project({}, 'incoming');
    const http = decode(
      GenSource,
      await inc.call('POST', '/sources', {
        name: 'gen-http',
        type: 'http',
        verifier: { type: 'hmac', hmac: { encoding: 'hex', hash: 'SHA256', header: 'X-Sig', secret: 's' } },
        idempotency_keys: ['request.header.X-Id'],
      }),
      201,
    );
    expect(http.verifier).toMatchObject({ type: 'hmac' });
    const q = `gen-${newId().toLowerCase()}`;
    const topic = await pubsubSubscription(q);
    try {
      const keyFile = JSON.stringify({ type: 'service_account', project_id: TEST_BROKERS.pubsubProject });
      const google = decode(
        GenSource,
        await inc.call('POST', '/sources', {
          name: 'gen-google',
          type: 'pub_sub',
          pub_sub: {
            type: 'google',
            workers: 1,
            google: {
              project_id: TEST_BROKERS.pubsubProject,
              subscription_id: q,
              service_account: Buffer.from(keyFile).toString('base64'),
            },
          },
        }),
        201,
      );
      const stored = google.pub_sub.google.service_account as number[];
      expect(Buffer.from(stored).toString('utf8')).toBe(keyFile);
      decode(genPage(GenSource), await inc.call('GET', '/sources?type=pub_sub'), 200);
    } finally {
      await topic.close();
    }
    const notBase64 = await inc.call('POST', '/sources', {
      name: 'gen-bad',
      type: 'pub_sub',
      pub_sub: {
        type: 'google',
        google: { project_id: 'p', subscription_id: 's', service_account: 'not base64!' },
      },
    });
    expect(notBase64.status).toBe(400);
    expect(notBase64.body.data.errors.map((e: { field: string }) => e.field)).toContain(
      'pub_sub.google.service_account',
    );
    const github = decode(
      GenSource,
      await inc.call('POST', '/sources', {
        name: 'gen-github',
        type: 'http',
        provider: 'github',
        verifier: { type: 'hmac', hmac: { encoding: '', hash: '', header: '', secret: 'gh' } },
      }),
      201,
    );
    const byProvider = decode(genPage(GenSource), await inc.call('GET', '/sources?provider=github'), 200);
    expect(byProvider.content.map((x) => x.uid)).toEqual([github.uid]);

    // fields of the generated models Hookrail does not have are refused, named (docs/convoy-compatibility.md)
    for (const [path, body, field] of [
      [
        '/endpoints',
        { name: 'x', url: `${receiver.url}/x`, teams_webhook_url: 'https://t.example' },
        'teams_webhook_url',
      ],
      [
        '/subscriptions',
        { name: 'x', endpoint_id: ep.uid, filter_config: { filter: { path: { id: 1 } } } },
        'filter_config.filter.path',
      ],
    ] as const) {
      const res = await out.call('POST', path, body);
      expect([path, res.status]).toEqual([path, 400]);
      expect(res.body.data.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    const refused = async (res: ApiResponse, field: string) => {
      expect([field, res.status]).toEqual([field, 400]);
      expect(res.body.data.errors.map((e: { field: string }) => e.field)).toContain(field);
    };
    await refused(
      await out.call('POST', '/endpoints', { name: 'x', url: `${receiver.url}/x`, appID: 'a' }),
      'appID',
    );
    await refused(
      await inc.call('POST', '/sources', { name: 'x', type: 'http', event_type_location: 'header' }),
      'event_type_location',
    );
    for (const setting of ['multiple_endpoint_subscriptions', 'request_id_header', 'verify_dynamic_events'])
      await refused(
        await out.call('PUT', '', {
          name: 'gen',
          config: { [setting]: setting === 'request_id_header' ? 'X-Id' : true },
        }),
        `config.${setting}`,
      );
  });

  it("event types with convoy-go's generated client: create, list, update, deprecate, import; answers decode", async () => {
    const out = await project();
    // CreateEventType, UpdateEventType and ImportOpenAPISpec as the generated client sends them
    const schema = { type: 'object', required: ['id'], properties: { id: { type: 'string' } } };
    const created = decode(
      GenEventType,
      await out.call('POST', '/event-types', {
        name: 'invoice.paid',
        category: 'billing',
        description: 'An invoice was paid',
        json_schema: schema,
      }),
      201,
    );
    expect(created).toMatchObject({ name: 'invoice.paid', category: 'billing', json_schema: schema });
    const plain = decode(
      GenEventType,
      await out.call('POST', '/event-types', { name: 'invoice.voided' }),
      201,
    );
    const list = decode(slice(GenEventType), await out.call('GET', '/event-types'), 200);
    expect(list.map((t) => t.name)).toEqual(['invoice.paid', 'invoice.voided']);
    const updated = decode(
      GenEventType,
      await out.call('PUT', `/event-types/${plain.uid}`, {
        description: 'An invoice was voided',
        category: '',
      }),
      202,
    );
    expect(updated).toMatchObject({ description: 'An invoice was voided', category: '' });
    const deprecated = decode(
      GenEventType,
      await out.call('POST', `/event-types/${created.uid}/deprecate`),
      200,
    );
    expect(deprecated.deprecated_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const spec = JSON.stringify({
      openapi: '3.1.0',
      info: { title: 'Billing', version: '1' },
      webhooks: {
        'invoice.paid': {
          post: { requestBody: { content: { 'application/json': { schema } } }, description: 'Paid' },
        },
        'invoice.created': { post: { description: 'Created' } },
      },
    });
    const imported = decode(
      slice(GenEventType),
      await out.call('POST', '/event-types/import', { spec }),
      200,
    );
    expect(imported.map((t) => [t.name, t.description])).toEqual([
      ['invoice.paid', 'Paid'],
      ['invoice.created', 'Created'],
    ]);
    // updated in place by name, still deprecated
    expect(imported[0]).toMatchObject({ uid: created.uid, deprecated_at: deprecated.deprecated_at });
  });

  it('advanced signatures over SHA256/hex and SHA512/base64 verify with every secret of a roll; simple SHA512/base64 too', async () => {
    const versions = [
      { hash: 'SHA256', encoding: 'hex' },
      { hash: 'SHA512', encoding: 'base64' },
    ];
    const p = await project({ signature: { header: 'X-Convoy-Signature', versions } });
    const ep = decode(
      EndpointResponse,
      await p.call(
        'POST',
        '/endpoints',
        createEndpointRequest({
          name: 'adv',
          url: `${receiver.url}/adv`,
          secret: 'old-secret-0001',
          advancedSignatures: true,
        }),
      ),
      201,
    );
    await p.call('POST', '/subscriptions', createSubscriptionRequest({ name: 's', endpointId: ep.uid }));
    const send = (n: number) =>
      p.call('POST', '/events', createEventRequest({ endpointId: ep.uid, eventType: 'x', data: { n } }));
    const verifyAll = (req: RecordedRequest, secret: string) => {
      for (const v of versions)
        convoyVerify(req.rawBody, req.headers['x-convoy-signature'], {
          secret,
          hash: v.hash as 'SHA256',
          encoding: v.encoding as 'hex',
        });
    };
    await send(1);
    verifyAll(await arrived('/adv'), 'old-secret-0001');

    await p.call('PUT', `/endpoints/${ep.uid}/expire_secret`, rollSecretRequest(3600, 'new-secret-0002'));
    // Until the old secret expires both sign. The roll holds from the next event (its
    // configuration barrier); events are sent until one is signed with the new secret.
    let n = 1;
    const second = await waitFor(
      'a delivery signed with the new secret',
      async () => {
        await send(++n);
        const req = await arrived('/adv', n);
        try {
          verifyAll(req, 'new-secret-0002');
          return req;
        } catch {
          return undefined;
        }
      },
      { timeoutMs: 20_000, intervalMs: 300 },
    );
    verifyAll(second, 'old-secret-0001');
    verifyAll(second, 'new-secret-0002');

    const simple = await project({
      signature: { header: 'X-Convoy-Signature', versions: [{ hash: 'SHA512', encoding: 'base64' }] },
    });
    const sep = decode(
      EndpointResponse,
      await simple.call(
        'POST',
        '/endpoints',
        createEndpointRequest({ name: 's', url: `${receiver.url}/simple512` }),
      ),
      201,
    );
    await simple.call(
      'POST',
      '/subscriptions',
      createSubscriptionRequest({ name: 's', endpointId: sep.uid }),
    );
    await simple.call(
      'POST',
      '/events',
      createEventRequest({ endpointId: sep.uid, eventType: 'x', data: { s: 1 } }),
    );
    const req = await arrived('/simple512');
    convoyVerify(req.rawBody, req.headers['x-convoy-signature'], {
      secret: sep.secrets[0].value,
      hash: 'SHA512',
      encoding: 'base64',
    });
    expect(() =>
      convoyVerify(req.rawBody, req.headers['x-convoy-signature'], { secret: sep.secrets[0].value }),
    ).toThrow();
  });

  it('Standard Webhooks mode: generated secrets are whsec_<base64> and verify with new Webhook(secret)', async () => {
    const p = await project({ signature: { standard_webhooks: true } });
    const ep = decode(
      EndpointResponse,
      await p.call('POST', '/endpoints', createEndpointRequest({ name: 'sw', url: `${receiver.url}/sw` })),
      201,
    );
    const secret = ep.secrets[0].value;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    await p.call('POST', '/subscriptions', createSubscriptionRequest({ name: 's', endpointId: ep.uid }));
    await p.call(
      'POST',
      '/events',
      createEventRequest({ endpointId: ep.uid, eventType: 'x', data: { sw: 1 } }),
    );
    const req = await arrived('/sw');
    expect(new Webhook(secret).verify(req.body, req.headers)).toEqual({ sw: 1 });
    expect(() =>
      new Webhook(`whsec_${Buffer.from('not-the-key').toString('base64')}`).verify(req.body, req.headers),
    ).toThrow();

    const rolled = decode(
      EndpointResponse,
      await p.call('PUT', `/endpoints/${ep.uid}/expire_secret`, rollSecretRequest(0)),
      200,
    );
    const newest = rolled.secrets[rolled.secrets.length - 1].value;
    expect(newest).toMatch(/^whsec_/);
    expect(newest).not.toBe(secret);
  });

  it('the OpenAPI document describes the accepted shapes: Convoy query names, null and "" as unset, POST activate', async () => {
    const doc = (await (await fetch(`${h.gateway.url}/api/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { parameters: { name: string }[]; requestBody?: any }>>; // eslint-disable-line @typescript-eslint/no-explicit-any
    };
    const params = (path: string, method = 'get') => doc.paths[path][method].parameters.map((x) => x.name);
    expect(params('/v1/projects/{projectID}/endpoints')).toEqual(
      expect.arrayContaining([
        'ownerId',
        'perPage',
        'next_page_cursor',
        'prev_page_cursor',
        'direction',
        'sort',
      ]),
    );
    expect(params('/v1/projects/{projectID}/events')).toEqual(
      expect.arrayContaining(['sourceId', 'endpointId', 'idempotencyKey', 'startDate', 'endDate']),
    );
    expect(params('/v1/projects/{projectID}/eventdeliveries')).toEqual(
      expect.arrayContaining(['eventId', 'endpointId', 'subscriptionId', 'status', 'startDate', 'endDate']),
    );
    expect(params('/v1/projects/{projectID}/subscriptions')).toEqual(
      expect.arrayContaining(['endpointId', 'sourceId']),
    );
    expect(params('/v1/projects/{projectID}/endpoints')).toContain('q');
    expect(params('/v1/projects/{projectID}/events')).toContain('query');
    // repeated filters are documented as arrays (form style, exploded: `endpointId=a&endpointId=b`)
    const param = (path: string, name: string) => doc.paths[path].get.parameters.find((x) => x.name === name);
    for (const [path, name] of [
      ['/v1/projects/{projectID}/subscriptions', 'endpointId'],
      ['/v1/projects/{projectID}/events', 'sourceId'],
      ['/v1/projects/{projectID}/events', 'endpointId'],
      ['/v1/projects/{projectID}/eventdeliveries', 'endpointId'],
      ['/v1/projects/{projectID}/eventdeliveries', 'status'],
    ])
      expect(param(path, name)).toMatchObject({
        style: 'form',
        explode: true,
        schema: { type: 'array', maxItems: 100 },
      });
    const endpointBody =
      doc.paths['/v1/projects/{projectID}/endpoints'].post.requestBody.content['application/json'].schema;
    expect(endpointBody.properties.advanced_signatures.anyOf).toContainEqual({
      type: 'null',
      description: 'not set',
    });
    expect(endpointBody.properties.support_email.anyOf).toContainEqual({ const: '', description: 'not set' });
    expect(endpointBody.properties.is_disabled.anyOf[0].type).toBe('boolean');
    expect(doc.paths['/v1/projects/{projectID}/endpoints/{endpointID}/activate'].post).toBeDefined();
  });

  it("projects: Convoy's config shape (meta_event.type http) is accepted, pub_sub refused; meta event resend (12)", async () => {
    const p = await project();
    const updated = await h.call('PUT', p.base, {
      key: p.key,
      body: {
        name: 'convoy-shaped',
        logo_url: '',
        config: {
          max_payload_read_size: 2048,
          replay_attacks_prevention_enabled: false,
          retention_policy_enabled: true,
          retention_policy: { policy: '720h' },
          disable_endpoint: false,
          ratelimit: null,
          strategy: { type: 'linear', duration: 30, retry_count: 5 },
          signature: {
            header: 'X-Convoy-Signature',
            versions: [{ uid: 'v1', hash: 'SHA256', encoding: 'hex', created_at: '2024-01-01T00:00:00Z' }],
          },
          meta_event: { is_enabled: false, type: 'http', event_type: null, url: '', secret: '' },
        },
      },
    });
    const decoded = decode(ProjectResponse, updated, 202);
    expect(updated.body.data.config).toMatchObject({
      max_payload_bytes: 2048,
      retention_seconds: 720 * 3600,
    });
    expect(decoded.name).toBe('convoy-shaped');

    const pubSub = await h.call('PUT', p.base, {
      key: p.key,
      body: { name: 'x', config: { meta_event: { type: 'pub_sub', is_enabled: true } } },
    });
    expect(pubSub.status).toBe(400);
    expect(pubSub.body.message).toContain('config.meta_event.type');

    const id = newId();
    await h.store.metaEvents.insert(p.id, {
      _id: id,
      event_type: 'endpoint.created',
      status: 'Failure',
      attempt: { request_http_header_json: '{}', response_http_header_json: '{}', response_data: '' },
      metadata: {
        raw: '{"event_type":"endpoint.created","data":{}}',
        strategy: 'linear',
        interval_seconds: 10,
        max_retry_seconds: 600,
        num_trials: 3,
        retry_limit: 3,
        next_send_time: null,
      },
    });
    const resent = decode(MetaEventResponse, await p.call('PUT', `/meta-events/${id}/resend`), 200);
    expect(resent).toMatchObject({ uid: id, status: 'Scheduled' });
    // and as convoy-go's generated client decodes them
    expect(decode(GenProject, await p.call('GET', ''), 200).uid).toBe(p.id);
    const created = decode(
      GenCreateProjectResponse,
      await h.call('POST', '/v1/projects', {
        key: ADMIN_KEY,
        body: { name: 'gen-created', type: 'outgoing' },
      }),
      201,
    );
    // Convoy's {type, project}; Hookrail's role name beside them is a field Convoy's models ignore
    expect(created.api_key.role).toEqual({
      type: 'project_admin',
      project: created.project.uid,
      name: 'owner',
    });
    expect(created.api_key.key).toMatch(/^hr_/);
    expect(decode(GenMetaEvent, await p.call('GET', `/meta-events/${id}`), 200).uid).toBe(id);
    decode(genPage(GenMetaEvent), await p.call('GET', '/meta-events'), 200);
    // the admin key still opens the project
    expect((await h.call('GET', p.base, { key: ADMIN_KEY })).status).toBe(200);
  });
});
