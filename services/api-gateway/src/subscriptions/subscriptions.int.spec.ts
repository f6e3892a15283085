import { GatewayHarness } from '../testing/gateway-harness';

describe('subscriptions API (operations 3, 4, 5, list, delete, test_filter, test_function)', () => {
  const h = new GatewayHarness();
  let p: { id: string; key: string };
  let sourceId: string;
  let endpointId: string;
  beforeAll(async () => {
    await h.start();
    p = await h.createProject('incoming');
    ({ sourceId, endpointId } = await h.createSourceAndEndpoint(p));
  });
  afterAll(() => h.stop());

  const base = () => `/v1/projects/${p.id}/subscriptions`;
  const create = (body: Record<string, unknown>) =>
    h.call('POST', base(), {
      key: p.key,
      body: { name: 'sub', source_id: sourceId, endpoint_id: endpointId, ...body },
    });

  it('creates a subscription (201) with flattened filters and embedded source and endpoint', async () => {
    const res = await create({
      function: 'function transform(p) { return p }',
      delivery_mode: 'at_most_once',
      alert_config: { count: 5, threshold: '1h' },
      rate_limit_config: { count: 100, duration: 60 },
      filter_config: {
        event_types: ['invoice.*'],
        filter: { body: { data: { amount: { $gte: 10 } } }, headers: { 'x-env': 'prod' } },
      },
    });
    expect(res.status).toBe(201);
    const s = res.body.data;
    expect(s).toMatchObject({
      type: 'api',
      delivery_mode: 'at_most_once',
      device_metadata: null,
      retry_config: null,
    });
    expect(s.filter_config).toEqual({
      event_types: ['invoice.*'],
      filter: { body: { 'data.amount': { $gte: 10 } }, headers: { 'x-env': 'prod' }, is_flattened: true },
    });
    expect(s.source_metadata.uid).toBe(sourceId);
    expect(s.endpoint_metadata.uid).toBe(endpointId);
    expect(s).not.toHaveProperty('source_id');

    const read = await h.call('GET', `${base()}/${s.uid}`, { key: p.key });
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(s);
  });

  it('updates a subscription (202): retry_config duration string or interval_seconds, in seconds', async () => {
    const s = (await create({ name: 'retry' })).body.data;
    const upd = await h.call('PUT', `${base()}/${s.uid}`, {
      key: p.key,
      body: { retry_config: { type: 'exponential', duration: '5m', retry_count: 3 } },
    });
    expect(upd.status).toBe(202);
    expect(upd.body.data.retry_config).toEqual({ type: 'exponential', duration: 300, retry_count: 3 });
    const byInterval = await h.call('PUT', `${base()}/${s.uid}`, {
      key: p.key,
      body: { retry_config: { interval_seconds: 45 } },
    });
    expect(byInterval.body.data.retry_config).toEqual({ type: 'exponential', duration: 45, retry_count: 3 });
    const disagree = await h.call('PUT', `${base()}/${s.uid}`, {
      key: p.key,
      body: { retry_config: { duration: '30s', interval_seconds: 31 } },
    });
    expect(disagree.status).toBe(400);
    expect(disagree.body.data.errors[0].field).toBe('retry_config.interval_seconds');
    const bad = await h.call('PUT', `${base()}/${s.uid}`, {
      key: p.key,
      body: { retry_config: { duration: 'soon' } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.data.errors[0].field).toBe('retry_config.duration');
    const renamed = await h.call('PUT', `${base()}/${s.uid}`, {
      key: p.key,
      body: { name: 'renamed', filter_config: { event_types: ['a'] } },
    });
    expect(renamed.body.data).toMatchObject({
      name: 'renamed',
      filter_config: { event_types: ['a'] },
      retry_config: { duration: 45 },
    });
  });

  it.each([
    [{ endpoint_id: undefined }, 'endpoint_id'],
    [{ endpoint_id: '01ARZ3NDEKTSV4RRFFQ69G5FAV' }, 'endpoint_id'],
    [{ source_id: null }, 'source_id'],
    [{ source_id: 'nope' }, 'source_id'],
    [{ delivery_mode: 'exactly_once' }, 'delivery_mode'],
    [
      { filter_config: { filter: { body: { amount: { $near: 1 } } } } },
      'filter_config.filter.body.amount.$near',
    ],
    [{ filter_config: { filter: { body: [] } } }, 'filter_config.filter.body'],
    [{ filter_config: { filter: { is_flattened: 'yes', colour: 1 } } }, 'filter_config.filter.colour'],
    [{ alert_config: { count: 1, threshold: 'often' } }, 'alert_config.threshold'],
    [{ rate_limit_config: { count: 1 } }, 'rate_limit_config.duration'],
    [{ retry_config: { type: 'cubic' } }, 'retry_config.type'],
  ])('rejects %j with 400 naming %s', async (patch, field) => {
    const body: Record<string, unknown> = {
      name: 'bad',
      source_id: sourceId,
      endpoint_id: endpointId,
      ...patch,
    };
    for (const k of Object.keys(body)) if (body[k] === undefined) delete body[k];
    const res = await h.call('POST', base(), { key: p.key, body });
    expect(res.status).toBe(400);
    expect(res.body.data.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('empties the function, retry, rate limit and alerts only through `clear`; the source where the project allows', async () => {
    const s = (
      await create({
        function: 'function transform(p) { return p }',
        retry_config: { type: 'linear', duration: '30s', retry_count: 3 },
        rate_limit_config: { count: 10, duration: 60 },
        alert_config: { count: 2, threshold: '1h' },
      })
    ).body.data;
    const put = (body: unknown, url = `${base()}/${s.uid}`, key = p.key) => h.call('PUT', url, { key, body });
    // null, as Convoy's clients send an unset field, keeps the stored value
    const kept = await put({
      function: null,
      retry_config: null,
      rate_limit_config: null,
      alert_config: null,
    });
    expect(kept.status).toBe(202);
    expect(kept.body.data).toMatchObject({
      function: 'function transform(p) { return p }',
      retry_config: { type: 'linear', duration: 30, retry_count: 3 },
      rate_limit_config: { count: 10 },
      alert_config: { count: 2 },
    });
    const emptied = await put({ clear: ['function', 'retry_config', 'rate_limit_config', 'alert_config'] });
    expect(emptied.status).toBe(202);
    expect(emptied.body.data).toMatchObject({
      function: null,
      retry_config: null,
      rate_limit_config: null,
      alert_config: null,
      source_metadata: { uid: sourceId },
    });
    // an incoming project routes by source: it cannot be cleared there
    const sourceless = await put({ clear: ['source_id'] });
    expect(sourceless.status).toBe(400);
    expect(sourceless.body.data.errors[0]).toMatchObject({ field: 'source_id' });
    const both = await put({ function: 'function transform(p) { return p }', clear: ['function'] });
    expect(both.status).toBe(400);
    expect(both.body.data.errors[0].field).toBe('clear');
    expect((await put({ clear: ['endpoint_id'] })).status).toBe(400);

    // an outgoing project's subscription may lose its source
    const q = await h.createProject('outgoing');
    const call = (path: string, body: unknown) =>
      h.call('POST', `/v1/projects/${q.id}${path}`, { key: q.key, body });
    const src = (await call('/sources', { name: 'src', type: 'http' })).body.data.uid;
    const ep = (await call('/endpoints', { name: 'ep', url: 'https://e.com' })).body.data.uid;
    const out = (await call('/subscriptions', { name: 'out', source_id: src, endpoint_id: ep })).body.data;
    expect(out.source_metadata).toMatchObject({ uid: src });
    const unsourced = await put(
      { clear: ['source_id'] },
      `/v1/projects/${q.id}/subscriptions/${out.uid}`,
      q.key,
    );
    expect(unsourced.status).toBe(202);
    expect(unsourced.body.data).toMatchObject({ source_metadata: null, endpoint_metadata: { uid: ep } });
  });

  it("refuses another project's endpoint or source as a link, and another project's subscription is 404", async () => {
    const other = await h.createProject('incoming');
    const theirEndpoint = (
      await h.call('POST', `/v1/projects/${other.id}/endpoints`, {
        key: other.key,
        body: { name: 'x', url: 'https://e.com' },
      })
    ).body.data.uid;
    const res = await create({ endpoint_id: theirEndpoint });
    expect(res.status).toBe(400);
    expect(res.body.data.errors[0].field).toBe('endpoint_id');
    const mine = (await create({ name: 'mine' })).body.data;
    const path = `/v1/projects/${other.id}/subscriptions/${mine.uid}`;
    expect((await h.call('GET', path, { key: other.key })).status).toBe(404);
    expect((await h.call('PUT', path, { key: other.key, body: { name: 'x' } })).status).toBe(404);
    expect((await h.call('DELETE', path, { key: other.key })).status).toBe(404);
    expect((await h.call('GET', `${base()}/${mine.uid}`, { key: other.key })).status).toBe(403);
  });

  it('lists subscriptions of an endpoint across pages and deletes one', async () => {
    const ep = (
      await h.call('POST', `/v1/projects/${p.id}/endpoints`, {
        key: p.key,
        body: { name: 'paged', url: 'https://e.com' },
      })
    ).body.data.uid;
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await create({ name: `s${i}`, endpoint_id: ep })).body.data.uid);
    const first = await h.call('GET', `${base()}?endpoint_id=${ep}&perPage=2`, { key: p.key });
    expect(first.body.data.content.map((s: { uid: string }) => s.uid)).toEqual([ids[2], ids[1]]);
    const second = await h.call(
      'GET',
      `${base()}?endpoint_id=${ep}&perPage=2&next_page_cursor=${first.body.data.pagination.next_page_cursor}`,
      { key: p.key },
    );
    expect(second.body.data.content.map((s: { uid: string }) => s.uid)).toEqual([ids[0]]);
    expect((await h.call('DELETE', `${base()}/${ids[0]}`, { key: p.key })).status).toBe(200);
    expect((await h.call('GET', `${base()}/${ids[0]}`, { key: p.key })).status).toBe(404);
  });

  it('deleting an endpoint deletes its subscriptions', async () => {
    const ep = (
      await h.call('POST', `/v1/projects/${p.id}/endpoints`, {
        key: p.key,
        body: { name: 'doomed', url: 'https://e.com' },
      })
    ).body.data.uid;
    const s = (await create({ name: 'dies', endpoint_id: ep })).body.data;
    await h.call('DELETE', `/v1/projects/${p.id}/endpoints/${ep}`, { key: p.key });
    expect((await h.call('GET', `${base()}/${s.uid}`, { key: p.key })).status).toBe(404);
  });

  it('test_filter answers whether a request passes the filter', async () => {
    const schema = { body: { data: { amount: { $gt: 10 } }, tags: 'vip' }, headers: { 'X-Env': 'prod' } };
    const yes = await h.call('POST', `${base()}/test_filter`, {
      key: p.key,
      body: {
        request: { body: { data: { amount: 11 }, tags: ['vip', 'eu'] }, headers: { 'x-env': 'prod' } },
        schema: { body: schema.body, headers: { 'x-env': 'prod' } },
      },
    });
    expect(yes.status).toBe(200);
    expect(yes.body.data).toEqual({ is_match: true });
    const no = await h.call('POST', `${base()}/test_filter`, {
      key: p.key,
      body: { request: { body: { data: { amount: 5 } } }, schema: { body: schema.body } },
    });
    expect(no.body.data).toEqual({ is_match: false });
    const bad = await h.call('POST', `${base()}/test_filter`, {
      key: p.key,
      body: { request: {}, schema: { body: { a: { $regex: '(' } } } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.data.errors[0].field).toBe('schema.body.a.$regex');
  });

  it('test_function runs the transform in the sandbox; a throwing function is a 400 with its message', async () => {
    const ok = await h.call('POST', `${base()}/test_function`, {
      key: p.key,
      body: { payload: { a: 1 }, function: 'function transform(p) { p.b = p.a + 1; return p }' },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual({ payload: { a: 1, b: 2 } });
    const boom = await h.call('POST', `${base()}/test_function`, {
      key: p.key,
      body: { payload: {}, function: 'function transform(p) { throw new Error("nope") }' },
    });
    expect(boom.status).toBe(400);
    expect(boom.body.data.errors[0]).toEqual({ field: 'function', message: expect.stringContaining('nope') });
    const loop = await h.call('POST', `${base()}/test_function`, {
      key: p.key,
      body: { payload: {}, function: 'function transform(p) { while (true) {} }' },
    });
    expect(loop.status).toBe(400);
  });
});
