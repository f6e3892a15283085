import { newId } from '@hookrail/domain';
import type { EventMessage, MetaMessage } from '@hookrail/bus';
import { makeDelivery, makeEvent, waitFor } from '@hookrail/testkit';
import { GatewayHarness } from '../testing/gateway-harness';

describe('events, event deliveries and meta events (operations 12, 13 and the events API)', () => {
  const h = new GatewayHarness();
  let p: Awaited<ReturnType<GatewayHarness['createProject']>>;
  let endpointId: string;
  let sourceId: string;
  let events: EventMessage[];
  let meta: MetaMessage[];
  beforeAll(async () => {
    await h.start();
    p = await h.createProject('outgoing', { max_payload_bytes: 2048 });
    endpointId = (
      await h.call('POST', `/v1/projects/${p.id}/endpoints`, {
        key: p.key,
        body: { name: 'ep', url: 'https://e.com', owner_id: 'own' },
      })
    ).body.data.uid;
    sourceId = (
      await h.call('POST', `/v1/projects/${p.id}/sources`, {
        key: p.key,
        body: { name: 'orders', type: 'http' },
      })
    ).body.data.uid;
    [events, meta] = await Promise.all([h.collect('events'), h.collect('meta')]);
  });
  afterAll(() => h.stop());

  const base = () => `/v1/projects/${p.id}/events`;

  it('accepts an event for one endpoint (201) only after it is on the events topic', async () => {
    const res = await h.call('POST', base(), {
      key: p.key,
      body: {
        endpoint_id: endpointId,
        event_type: 'invoice.paid',
        data: { amount: 5, 'a.b': 1 },
        custom_headers: { 'X-Tenant': 't1' },
        idempotency_key: 'k-1',
      },
    });
    expect(res.status).toBe(201);
    // No ETag: nothing revalidates API answers, and computing one hashes every body.
    expect(res.headers.get('etag')).toBeNull();
    expect(res.body.data).toMatchObject({
      event_type: 'invoice.paid',
      status: 'Pending',
      target: { mode: 'single', endpoint_id: endpointId },
    });
    const m = await waitFor('event message', () => events.find((e) => e.event_id === res.body.data.uid));
    expect(m).toMatchObject({
      project_id: p.id,
      target: { mode: 'single', endpoint_id: endpointId },
      raw: '{"amount":5,"a.b":1}',
      forward_headers: { 'x-tenant': 't1' },
      idempotency_key: 'k-1',
    });
    // The payload travels once, as its JSON text.
    expect(m).not.toHaveProperty('data');
  });

  it('fans out by owner id and broadcasts', async () => {
    const fan = await h.call('POST', `${base()}/fanout`, {
      key: p.key,
      body: { owner_id: 'own', event_type: 'x', data: [1] },
    });
    expect(fan.status).toBe(201);
    const all = await h.call('POST', `${base()}/broadcast`, {
      key: p.key,
      body: { event_type: 'y', data: 'text' },
    });
    expect(all.status).toBe(201);
    await waitFor('fanout + broadcast messages', () => {
      const f = events.find((e) => e.event_id === fan.body.data.uid);
      const b = events.find((e) => e.event_id === all.body.data.uid);
      return (
        f &&
        b &&
        f.target.mode === 'fanout' &&
        (f.target as { owner_id: string }).owner_id === 'own' &&
        b.target.mode === 'broadcast'
      );
    });
  });

  it('rejects bad events: 400 naming the field, 413 over the project payload limit', async () => {
    for (const [path, body, field] of [
      ['', { event_type: 'x', data: {} }, 'endpoint_id'],
      ['', { endpoint_id: endpointId, data: {} }, 'event_type'],
      ['', { endpoint_id: endpointId, event_type: 'x' }, 'data'],
      ['', { endpoint_id: '01ARZ3NDEKTSV4RRFFQ69G5FAV', event_type: 'x', data: {} }, 'endpoint_id'],
      [
        '',
        { endpoint_id: endpointId, event_type: 'x', data: {}, custom_headers: { a: 1 } },
        'custom_headers.a',
      ],
      ['/fanout', { event_type: 'x', data: {} }, 'owner_id'],
      ['/broadcast', { event_type: 'x', data: {}, endpoint_id: endpointId }, 'endpoint_id'],
    ] as [string, unknown, string][]) {
      const res = await h.call('POST', `${base()}${path}`, { key: p.key, body });
      expect(res.status).toBe(400);
      expect(res.body.data.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    const big = await h.call('POST', base(), {
      key: p.key,
      body: { endpoint_id: endpointId, event_type: 'x', data: { s: 'x'.repeat(3000) } },
    });
    expect(big.status).toBe(413);
  });

  it('refuses a pattern as an event type in every target mode: 400 naming event_type, nothing published', async () => {
    const bodies: [string, object][] = [
      ['', { endpoint_id: endpointId }],
      ['/fanout', { owner_id: 'own' }],
      ['/broadcast', {}],
    ];
    for (const [path, target] of bodies)
      for (const event_type of ['invoice.*', '*']) {
        const res = await h.call('POST', `${base()}${path}`, {
          key: p.key,
          body: { ...target, event_type, data: { n: 1 } },
        });
        expect(res.status).toBe(400);
        expect(res.body.data.errors).toEqual([
          {
            field: 'event_type',
            message: expect.stringContaining(`"${event_type}" is a pattern, not an event type`),
          },
        ]);
      }
    const concrete = await h.call('POST', `${base()}/broadcast`, {
      key: p.key,
      body: { event_type: 'invoice.paid', data: { n: 2 } },
    });
    expect(concrete.status).toBe(201);
    await waitFor('the concrete event', () => events.find((e) => e.event_id === concrete.body.data.uid));
    expect(events.filter((e) => e.project_id === p.id && e.event_type.includes('*'))).toEqual([]);
  });

  it('gets a stored event with payload as JSON, targeted endpoints and source, and lists events', async () => {
    const eventId = newId();
    await makeEvent(h.store, p.id, {
      _id: eventId,
      source_id: sourceId,
      event_type: 'order.created',
      status: 'Processing',
      raw: '{"order":{"id":7},"$odd.key":true}',
      headers_json: '{"content-type":"application/json","x.dotted":"1"}',
      url_query_params: 'a=1',
      // the router records the endpoints it created deliveries for
      endpoints: [endpointId],
      target: { mode: 'source' },
      acknowledged_at: new Date(),
    });
    const deliveryId = newId();
    await makeDelivery(h.store, p.id, {
      _id: deliveryId,
      event_id: eventId,
      endpoint_id: endpointId,
      source_id: sourceId,
      event_type: 'order.created',
      status: 'Retry',
      attempts_made: 1,
      next_attempt_at: new Date(Date.now() + 60_000),
      status_reason: 'HTTP 500',
      attempts: [
        {
          uid: newId(),
          url: 'https://e.com',
          method: 'POST',
          request_headers_json: '{"x-hookrail-event-id":"e"}',
          response_headers_json: '{"content-type":"text/plain"}',
          http_status: 500,
          response_data: 'boom',
          error: null,
          latency_ms: 12,
          created_at: new Date(),
        },
      ],
    });
    const res = await h.call('GET', `${base()}/${eventId}`, { key: p.key });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      uid: eventId,
      data: { order: { id: 7 }, '$odd.key': true },
      raw: '{"order":{"id":7},"$odd.key":true}',
      headers: { 'x.dotted': ['1'] }, // Convoy's http.Header: a list per header
      endpoints: [endpointId],
      status: 'Retry', // derived from its delivery (stored: Processing, as the router leaves it)
      is_duplicate_event: false,
      source_id: sourceId,
      url_query_params: 'a=1',
    });
    expect(res.body.data.endpoint_metadata[0].uid).toBe(endpointId);
    expect(res.body.data.source_metadata.uid).toBe(sourceId);

    const list = await h.call('GET', `${base()}?endpoint_id=${endpointId}`, { key: p.key });
    expect(list.body.data.content.map((e: { uid: string }) => e.uid)).toEqual([eventId]);

    const deliveries = await h.call('GET', `/v1/projects/${p.id}/eventdeliveries?event_id=${eventId}`, {
      key: p.key,
    });
    expect(deliveries.body.data.content).toHaveLength(1);
    expect(deliveries.body.data.content[0]).toMatchObject({
      uid: deliveryId,
      status: 'Retry',
      last_http_status: 500,
    });
    const one = await h.call('GET', `/v1/projects/${p.id}/eventdeliveries/${deliveryId}`, { key: p.key });
    expect(one.body.data.attempts_made).toBe(1);
    const attempts = await h.call(
      'GET',
      `/v1/projects/${p.id}/eventdeliveries/${deliveryId}/deliveryattempts`,
      { key: p.key },
    );
    expect(attempts.body.data[0]).toMatchObject({
      http_status: '500', // a string, as in Convoy
      http_status_code: 500,
      status: false,
      response_data: 'boom',
      request_http_header: { 'x-hookrail-event-id': 'e' },
    });

    const other = await h.createProject();
    expect(
      (await h.call('GET', `/v1/projects/${other.id}/events/${eventId}`, { key: other.key })).status,
    ).toBe(404);
    expect(
      (await h.call('GET', `/v1/projects/${other.id}/eventdeliveries/${deliveryId}`, { key: other.key }))
        .status,
    ).toBe(404);
    expect(
      (
        await h.call('GET', `/v1/projects/${other.id}/eventdeliveries/${deliveryId}/deliveryattempts`, {
          key: other.key,
        })
      ).status,
    ).toBe(404);
    expect((await h.call('GET', `${base()}/${eventId}`, { key: other.key })).status).toBe(403);
    expect((await h.call('GET', `${base()}/${newId()}`, { key: p.key })).status).toBe(404);
  }, 120_000);

  it('pages through events', async () => {
    const q = await h.createProject();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const id = newId();
      ids.push(id);
      await makeEvent(h.store, q.id, { _id: id, event_type: 'e', raw: `{"i":${i}}` });
    }
    const first = await h.call('GET', `/v1/projects/${q.id}/events?perPage=3`, { key: q.key });
    expect(first.body.data.content.map((e: { uid: string }) => e.uid)).toEqual([ids[4], ids[3], ids[2]]);
    const second = await h.call(
      'GET',
      `/v1/projects/${q.id}/events?perPage=3&next_page_cursor=${first.body.data.pagination.next_page_cursor}`,
      { key: q.key },
    );
    expect(second.body.data.content.map((e: { uid: string }) => e.uid)).toEqual([ids[1], ids[0]]);
    expect(second.body.data.pagination).toMatchObject({ has_next_page: false, has_prev_page: true });
    expect(second.body.data.content[1].data).toEqual({ i: 0 });
  }, 120_000);

  it('filters events by the status their deliveries give them, across pages', async () => {
    const q = await h.createProject();
    const ep = newId();
    // Seven routed events (stored Processing, as the router leaves them): their deliveries say
    // Success for 0, 2, 4, 6; Failure for 1 and 5; event 3's delivery is still on its first send.
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const id = newId();
      ids.push(id);
      await makeEvent(h.store, q.id, { _id: id, status: 'Processing', delivery_count: 1, endpoints: [ep] });
      if (i !== 3)
        await makeDelivery(h.store, q.id, {
          event_id: id,
          endpoint_id: ep,
          status: i % 2 === 0 ? 'Success' : i === 1 || i === 5 ? 'Failure' : 'Success',
        });
    }
    // and one that routing settled: nothing matched
    const unmatched = newId();
    await makeEvent(h.store, q.id, { _id: unmatched, status: 'Failure', delivery_count: 0 });
    const list = (query: string) =>
      h.call('GET', `/v1/projects/${q.id}/events?${query}`, { key: q.key }).then((r) => r.body.data);
    const uids = (page: { content: { uid: string; status: string }[] }) => page.content.map((e) => e.uid);

    const failed = await list('status=Failure');
    expect(uids(failed)).toEqual([unmatched, ids[5], ids[1]]);
    expect(await list('status=Processing').then(uids)).toEqual([ids[3]]);
    const first = await list('status=Success&perPage=2');
    expect(uids(first)).toEqual([ids[6], ids[4]]);
    expect(first.pagination.has_next_page).toBe(true);
    const second = await list(
      `status=Success&perPage=2&next_page_cursor=${first.pagination.next_page_cursor}`,
    );
    expect(uids(second)).toEqual([ids[2], ids[0]]);
    const back = await list(
      `status=Success&perPage=2&direction=prev&prev_page_cursor=${second.pagination.prev_page_cursor}`,
    );
    expect(uids(back)).toEqual([ids[6], ids[4]]);
    // every event shows its derived status, with or without the filter
    const all = await list('perPage=100');
    const statusOf = new Map(all.content.map((e: { uid: string; status: string }) => [e.uid, e.status]));
    expect(statusOf.get(ids[3])).toBe('Processing');
    expect(statusOf.get(ids[1])).toBe('Failure');
    expect(statusOf.get(ids[0])).toBe('Success');
  });

  it('lists, gets and resends a meta event: Scheduled again and published with its id', async () => {
    const id = newId();
    await h.store.metaEvents.insert(p.id, {
      _id: id,
      event_type: 'endpoint.created',
      status: 'Failure',
      attempt: {
        request_http_header_json: '{"x-a":"1"}',
        response_http_header_json: '{}',
        response_data: 'nope',
      },
      metadata: {
        raw: '{"event_type":"endpoint.created","data":{"uid":"e1"}}',
        strategy: 'linear',
        interval_seconds: 100,
        max_retry_seconds: 7200,
        num_trials: 11,
        retry_limit: 10,
        next_send_time: null,
      },
    });
    const list = await h.call('GET', `/v1/projects/${p.id}/meta-events?perPage=100`, { key: p.key });
    expect(list.body.data.content.map((m: { uid: string }) => m.uid)).toContain(id);
    const one = await h.call('GET', `/v1/projects/${p.id}/meta-events/${id}`, { key: p.key });
    expect(one.body.data).toMatchObject({
      status: 'Failure',
      attempt: { request_http_header: { 'x-a': '1' }, response_data: 'nope' },
    });
    expect(one.body.data.metadata.data).toEqual({ event_type: 'endpoint.created', data: { uid: 'e1' } });

    const res = await h.call('PUT', `/v1/projects/${p.id}/meta-events/${id}/resend`, { key: p.key });
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('Scheduled');
    expect(res.body.data.metadata.next_send_time).toEqual(expect.any(String));
    await waitFor('resend message', () => meta.find((m) => m.meta_event_id === id));

    const other = await h.createProject();
    expect(
      (await h.call('PUT', `/v1/projects/${other.id}/meta-events/${id}/resend`, { key: other.key })).status,
    ).toBe(404);
    expect(
      (await h.call('GET', `/v1/projects/${other.id}/meta-events/${id}`, { key: other.key })).status,
    ).toBe(404);
  });
});
