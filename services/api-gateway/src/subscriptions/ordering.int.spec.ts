import type { ProjectId } from '@hookrail/domain';
import { waitFor } from '@hookrail/testkit';
import { GatewayHarness } from '../testing/gateway-harness';

/** docs/ordered-delivery.md: the `ordering` option of a subscription and an endpoint's blocked keys. */
describe('ordered delivery settings and blocked keys (API)', () => {
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

  const subscriptions = () => `/v1/projects/${p.id}/subscriptions`;
  const create = (body: Record<string, unknown>) =>
    h.call('POST', subscriptions(), {
      key: p.key,
      body: { name: 'sub', source_id: sourceId, endpoint_id: endpointId, ...body },
    });

  it('a subscription without ordering answers ordering "none", exactly as before', async () => {
    const res = await create({});
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      ordering: 'none',
      ordering_key: null,
      ordering_unblock_on: ['failure', 'discarded'],
    });
  });

  it('stores key ordering with a body path or a header, endpoint ordering, and clears it', async () => {
    const byPath = await create({ ordering: 'key', ordering_key: { body_path: 'data.order_id' } });
    expect(byPath.status).toBe(201);
    expect(byPath.body.data).toMatchObject({ ordering: 'key', ordering_key: { body_path: 'data.order_id' } });
    const id = byPath.body.data.uid as string;
    const put = (body: Record<string, unknown>) =>
      h.call('PUT', `${subscriptions()}/${id}`, { key: p.key, body });

    const byHeader = await put({
      ordering_key: { header: 'X-Order-Id' },
      ordering_unblock_on: ['discarded'],
    });
    expect(byHeader.status).toBe(202);
    expect(byHeader.body.data).toMatchObject({
      ordering: 'key',
      ordering_key: { header: 'x-order-id' },
      ordering_unblock_on: ['discarded'],
    });
    const endpoint = await put({ ordering: 'endpoint' });
    expect(endpoint.body.data).toMatchObject({ ordering: 'endpoint', ordering_key: null });
    // an update that says nothing about ordering keeps it
    expect((await put({ name: 'renamed' })).body.data.ordering).toBe('endpoint');
    const cleared = await put({ clear: ['ordering'] });
    expect(cleared.body.data).toMatchObject({ ordering: 'none', ordering_key: null });
  });

  it.each([
    [{ ordering: 'fifo' }, 'ordering'],
    [{ ordering: 'key' }, 'ordering_key'],
    [{ ordering: 'key', ordering_key: {} }, 'ordering_key'],
    [{ ordering: 'key', ordering_key: { body_path: 'a..b' } }, 'ordering_key.body_path'],
    [{ ordering: 'key', ordering_key: { body_path: 'data.id', header: 'x-id' } }, 'ordering_key'],
    [{ ordering: 'key', ordering_key: { header: 'bad header' } }, 'ordering_key.header'],
    [{ ordering: 'endpoint', ordering_key: { header: 'x-id' } }, 'ordering_key'],
    [
      { ordering: 'key', ordering_key: { body_path: 'id' }, ordering_unblock_on: ['never'] },
      'ordering_unblock_on.0',
    ],
  ])('rejects %j with 400 naming %s', async (patch, field) => {
    const res = await create(patch);
    expect(res.status).toBe(400);
    expect(res.body.data.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it("lists an endpoint's blocked keys and takes an operator's unblock request for the head it names", async () => {
    const projectId = p.id as ProjectId;
    const since = new Date('2026-01-02T10:42:00Z');
    await h.store.ordering.saveKeys([
      {
        project_id: projectId,
        endpoint_id: endpointId,
        deployment: h.prefix,
        key: 'key:order-1',
        head: 'head-delivery',
        blocked_since: since,
        head_status: 'Failure',
      },
    ]);
    await h.store.ordering.hold(
      ['held-1', 'held-2'].map((id, i) => ({
        _id: `${id}-${endpointId}`,
        project_id: projectId,
        endpoint_id: endpointId,
        key: 'key:order-1',
        seq: i + 1,
        message_json: '{}',
        created_at: new Date(),
      })),
    );
    const base = `/v1/projects/${p.id}/endpoints/${endpointId}/blocked-keys`;
    const list = await h.call('GET', base, { key: p.key });
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([
      {
        key: 'key:order-1',
        head_delivery_id: 'head-delivery',
        held: 2,
        blocked_since: since.toISOString(),
        head_status: 'Failure',
        skip_requested_at: null,
      },
    ]);

    const stale = await h.call('POST', `${base}/unblock`, {
      key: p.key,
      body: { key: 'key:order-1', head_delivery_id: 'another' },
    });
    expect(stale.status).toBe(400);
    expect(stale.body.data.errors[0].field).toBe('head_delivery_id');
    const unknown = await h.call('POST', `${base}/unblock`, {
      key: p.key,
      body: { key: 'key:nope', head_delivery_id: 'head-delivery' },
    });
    expect(unknown.status).toBe(404);
    const missingField = await h.call('POST', `${base}/unblock`, {
      key: p.key,
      body: { key: 'key:order-1' },
    });
    expect(missingField.status).toBe(400);
    expect(missingField.body.data.errors[0].field).toBe('head_delivery_id');

    const unblock = await h.call('POST', `${base}/unblock`, {
      key: p.key,
      body: { key: 'key:order-1', head_delivery_id: 'head-delivery' },
    });
    expect(unblock.status).toBe(202);
    expect(unblock.body.data.skip_requested_at).toEqual(expect.any(String));
    expect(unblock.body.data.held).toBe(2);

    // another project's key cannot be reached through this project's endpoint path
    const other = await h.createProject('incoming');
    const foreign = await h.call('GET', base.replace(p.id, other.id), { key: other.key });
    expect(foreign.status).toBe(404);
  });

  it('the events API marks the events of a project that orders as ordered (keyed by project: topics.spec), and only those', async () => {
    const events = await h.collect('events');
    const send = async (project: { id: string; key: string }, ordering?: string) => {
      const endpoint = (
        await h.call('POST', `/v1/projects/${project.id}/endpoints`, {
          key: project.key,
          body: { name: 'ep', url: 'https://e.com' },
        })
      ).body.data.uid as string;
      const sub = await h.call('POST', `/v1/projects/${project.id}/subscriptions`, {
        key: project.key,
        body: { name: 'sub', endpoint_id: endpoint, ...(ordering && { ordering }) },
      });
      expect(sub.status).toBe(201);
      const res = await h.call('POST', `/v1/projects/${project.id}/events`, {
        key: project.key,
        body: { endpoint_id: endpoint, event_type: 'order.placed', data: { id: 1 } },
      });
      expect(res.status).toBe(201);
      return waitFor('the event on the events topic', () =>
        events.find((e) => e.event_id === res.body.data.uid),
      );
    };
    expect((await send(await h.createProject('outgoing'), 'endpoint')).ordered).toBe(true);
    expect((await send(await h.createProject('outgoing'))).ordered).toBeUndefined();
  });
});
