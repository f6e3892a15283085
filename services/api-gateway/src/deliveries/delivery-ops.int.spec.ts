import type { DeliveryMessage } from '@hookrail/bus';
import { newId } from '@hookrail/domain';
import type { DeliveryDoc, DeliveryStatus } from '@hookrail/store';
import { makeDelivery, makeEvent, waitFor } from '@hookrail/testkit';
import { GatewayHarness } from '../testing/gateway-harness';

jest.setTimeout(120_000); // the shared test database server is slow under load; each step still waits for real effects

describe('manual delivery operations (resend, force resend, batch retry, replay, batch replay)', () => {
  const h = new GatewayHarness();
  let p: Awaited<ReturnType<GatewayHarness['createProject']>>;
  let sent: DeliveryMessage[];

  beforeAll(async () => {
    await h.start();
    p = await h.createProject('outgoing');
    sent = await h.collect('deliveries');
  });
  afterAll(() => h.stop());

  const seedEvent = async (sourceId: string | null = null) => {
    const event = await makeEvent(h.store, p.id, { source_id: sourceId, status: 'Failure', raw: '{"a":1}' });
    return event._id;
  };
  const seedDelivery = async (status: DeliveryStatus, over: Partial<DeliveryDoc> = {}) => {
    return makeDelivery(h.store, p.id, {
      event_id: over.event_id ?? (await seedEvent()),
      endpoint_id: 'ep-' + newId(),
      subscription_id: 'sub-' + newId(),
      status,
      attempts_made: 3,
      retries_used: 2,
      status_reason: 'endpoint answered 500',
      metadata: { siblings: 1 },
      ...over,
    });
  };
  const messagesFor = (id: string) => sent.filter((m) => m.delivery_id === id);
  const url = (path: string) => `/v1/projects/${p.id}${path}`;

  it('resends a failed delivery: back to Scheduled and a resend message on deliveries', async () => {
    const d = await seedDelivery('Failure');
    const res = await h.call('PUT', url(`/eventdeliveries/${d._id}/resend`), { key: p.key });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ uid: d._id, status: 'Scheduled' });
    expect((await h.store.deliveries.findById(p.id, d._id))?.status).toBe('Scheduled');
    const [m] = await waitFor(
      'the resend message',
      () => messagesFor(d._id).length > 0 && messagesFor(d._id),
    );
    expect(m).toEqual({
      delivery_id: d._id,
      project_id: p.id,
      endpoint_id: d.endpoint_id,
      event_id: d.event_id,
      reason: 'resend',
    });
  });

  it('resends a discarded delivery too', async () => {
    const d = await seedDelivery('Discarded');
    expect((await h.call('PUT', url(`/eventdeliveries/${d._id}/resend`), { key: p.key })).status).toBe(200);
  });

  it('refuses to resend a successful or still-retrying delivery with 409 and sends nothing', async () => {
    for (const status of ['Success', 'Retry'] as const) {
      const d = await seedDelivery(status);
      const res = await h.call('PUT', url(`/eventdeliveries/${d._id}/resend`), { key: p.key });
      expect(res.status).toBe(409);
      expect(res.body.message).toContain(`status ${status}`);
      expect((await h.store.deliveries.findById(p.id, d._id))?.status).toBe(status);
    }
  });

  it('answers 404 for an unknown delivery and for one of another project', async () => {
    const other = await h.createProject('outgoing');
    const d = await seedDelivery('Failure');
    expect((await h.call('PUT', url(`/eventdeliveries/${newId()}/resend`), { key: p.key })).status).toBe(404);
    const res = await h.call('PUT', `/v1/projects/${other.id}/eventdeliveries/${d._id}/resend`, {
      key: other.key,
    });
    expect(res.status).toBe(404);
  });

  it('retries now a delivery still in Retry: Scheduled at once with a resend message; 409 for a success, 404 elsewhere', async () => {
    const d = await seedDelivery('Retry', { next_attempt_at: new Date(Date.now() + 100_000) });
    const res = await h.call('PUT', url(`/eventdeliveries/${d._id}/retry-now`), { key: p.key });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ message: 'Event delivery sent again now' });
    expect(res.body.data).toMatchObject({ uid: d._id, status: 'Scheduled' });
    expect((await h.store.deliveries.findById(p.id, d._id))?.status).toBe('Scheduled');
    const [m] = await waitFor(
      'the retry-now message',
      () => messagesFor(d._id).length > 0 && messagesFor(d._id),
    );
    expect(m).toMatchObject({ delivery_id: d._id, reason: 'resend' });

    const done = await seedDelivery('Success');
    const refused = await h.call('PUT', url(`/eventdeliveries/${done._id}/retry-now`), { key: p.key });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('status Success');
    expect((await h.store.deliveries.findById(p.id, done._id))?.status).toBe('Success');

    const other = await h.createProject('outgoing');
    const waiting = await seedDelivery('Retry');
    const foreign = await h.call('PUT', `/v1/projects/${other.id}/eventdeliveries/${waiting._id}/retry-now`, {
      key: other.key,
    });
    expect(foreign.status).toBe(404);
    expect((await h.store.deliveries.findById(p.id, waiting._id))?.status).toBe('Retry');
    expect(messagesFor(done._id).concat(messagesFor(waiting._id))).toEqual([]);
  });

  it('force resends a successful delivery, one by id and several by ids', async () => {
    const one = await seedDelivery('Success');
    expect((await h.call('PUT', url(`/eventdeliveries/${one._id}/forceresend`), { key: p.key })).status).toBe(
      200,
    );
    const a = await seedDelivery('Success');
    const b = await seedDelivery('Retry');
    const missing = newId();
    const res = await h.call('POST', url('/eventdeliveries/forceresend'), {
      key: p.key,
      body: { ids: [a._id, b._id, missing] },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ resent: 1, not_found: [missing], not_resendable: [b._id] });
    await waitFor(
      'force resend messages',
      () => messagesFor(one._id).length > 0 && messagesFor(a._id).length > 0,
    );
    expect(messagesFor(b._id)).toHaveLength(0);
  });

  it('rejects bad bodies with 400 naming the field', async () => {
    const empty = await h.call('POST', url('/eventdeliveries/forceresend'), {
      key: p.key,
      body: { ids: [] },
    });
    expect(empty.status).toBe(400);
    expect(JSON.stringify(empty.body.data)).toContain('ids');
    const badStatus = await h.call('POST', url('/eventdeliveries/batchretry'), {
      key: p.key,
      body: { status: ['Success'] },
    });
    expect(badStatus.status).toBe(400);
    expect(JSON.stringify(badStatus.body.data)).toContain('status');
    const badSingle = await h.call('POST', url('/eventdeliveries/batchretry'), {
      key: p.key,
      body: { status: 'Success' },
    });
    expect(badSingle.status).toBe(400);
    expect(badSingle.body.data.errors[0].field).toContain('status');
    const unknown = await h.call('POST', url('/events/batchreplay'), { key: p.key, body: { nope: 1 } });
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body.data)).toContain('nope');
  });

  it('batch retries the failed and discarded deliveries matching a filter, and only those', async () => {
    const endpointId = 'ep-batch-' + newId();
    const failed = await seedDelivery('Failure', { endpoint_id: endpointId });
    const discarded = await seedDelivery('Discarded', { endpoint_id: endpointId });
    const ok = await seedDelivery('Success', { endpoint_id: endpointId });
    const elsewhere = await seedDelivery('Failure');
    const res = await h.call('POST', url('/eventdeliveries/batchretry'), {
      key: p.key,
      body: { endpoint_id: endpointId },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ matched: 2, resent: 2, more: false });
    await waitFor(
      'batch messages',
      () => messagesFor(failed._id).length > 0 && messagesFor(discarded._id).length > 0,
    );
    expect(messagesFor(ok._id)).toHaveLength(0);
    expect(messagesFor(elsewhere._id)).toHaveLength(0);
    const onlyDiscarded = await h.call('POST', url('/eventdeliveries/batchretry'), {
      key: p.key,
      body: { endpoint_id: endpointId, status: ['Discarded'] },
    });
    expect(onlyDiscarded.body.data).toEqual({ matched: 0, resent: 0, more: false }); // now Scheduled
    // a single status is accepted as well as a list
    const another = await seedDelivery('Failure', { endpoint_id: endpointId });
    await seedDelivery('Discarded', { endpoint_id: endpointId });
    const single = await h.call('POST', url('/eventdeliveries/batchretry'), {
      key: p.key,
      body: { endpoint_id: endpointId, status: 'Failure' },
    });
    expect(single.body.data).toEqual({ matched: 1, resent: 1, more: false });
    await waitFor('single-status batch message', () => messagesFor(another._id).length > 0);
  });

  it('replays an event: a new delivery per subscription, sent as a first attempt; the old one stays', async () => {
    const eventId = await seedEvent();
    const old = await seedDelivery('Success', { event_id: eventId });
    const res = await h.call('PUT', url(`/events/${eventId}/replay`), { key: p.key });
    expect(res.status).toBe(200);
    expect(res.body.data.deliveries).toHaveLength(1);
    const copy = res.body.data.deliveries[0];
    expect(copy.uid).not.toBe(old._id);
    const stored = await h.store.deliveries.findById(p.id, copy.uid);
    expect(stored).toMatchObject({
      status: 'Scheduled',
      subscription_id: old.subscription_id,
      endpoint_id: old.endpoint_id,
      attempts_made: 0,
      retries_used: 0,
    });
    expect((await h.store.deliveries.findById(p.id, old._id))?.status).toBe('Success');
    const [m] = await waitFor(
      'the replay message',
      () => messagesFor(copy.uid).length > 0 && messagesFor(copy.uid),
    );
    expect(m.reason).toBe('initial');
  });

  it('answers 404 for an unknown event and 409 for an event without deliveries', async () => {
    expect((await h.call('PUT', url(`/events/${newId()}/replay`), { key: p.key })).status).toBe(404);
    const lonely = await seedEvent();
    expect((await h.call('PUT', url(`/events/${lonely}/replay`), { key: p.key })).status).toBe(409);
  });

  it('batch replays the events of a source', async () => {
    const sourceId = 'src-' + newId();
    const e1 = await seedEvent(sourceId);
    const e2 = await seedEvent(sourceId);
    await seedDelivery('Failure', { event_id: e1 });
    await seedDelivery('Success', { event_id: e2 });
    const res = await h.call('POST', url('/events/batchreplay'), {
      key: p.key,
      body: { source_id: sourceId },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ matched: 2, resent: 2, more: false });
    const copies = (await h.store.deliveries.listByEvents(p.id, [e1, e2])).filter(
      (d) => d.status_reason === 'replay',
    );
    expect(copies).toHaveLength(2);
  });
});
