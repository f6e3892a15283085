import { createHmac } from 'node:crypto';
import type { RunningService } from '@hookrail/runtime';
import { startReceiver, startTestService, testConfig, waitFor, type Receiver } from '@hookrail/testkit';
import { GatewayHarness } from '../../api-gateway/src/testing/gateway-harness';
import { definition } from './service';

const SECRET = 'meta-api-secret-0123456789';

describe('meta events end to end: api-gateway and meta-event service on the same topics', () => {
  const h = new GatewayHarness();
  let metaService: RunningService;
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await startReceiver();
    await h.start();
    metaService = await startTestService(
      definition(testConfig('meta-event', { HOOKRAIL_KAFKA_TOPIC_PREFIX: h.prefix })),
    );
  });
  afterAll(async () => {
    await metaService?.stop();
    await h.stop();
    await receiver?.close();
  });

  const signatureOf = (body: Buffer) => createHmac('sha256', SECRET).update(body).digest('hex');

  it('delivers endpoint.created signed, lists and gets it, and resends it through the resend operation', async () => {
    const p = await h.createProject('outgoing', {
      meta_event: { is_enabled: true, url: `${receiver.url}/meta`, secret: SECRET },
    });
    const base = `/v1/projects/${p.id}/meta-events`;
    const endpoint = await h.call('POST', `/v1/projects/${p.id}/endpoints`, {
      key: p.key,
      body: { name: 'billing', url: 'https://example.com/hook', owner_id: 'acme' },
    });
    expect(endpoint.status).toBe(201);

    const first = await waitFor('the meta event at the receiver', () => receiver.requests[0]);
    expect(first.path).toBe('/meta');
    const payload = JSON.parse(first.body);
    expect(payload.event_type).toBe('endpoint.created');
    expect(payload.data).toMatchObject({ uid: endpoint.body.data.uid, name: 'billing' });
    expect(first.headers['x-hookrail-signature']).toBe(signatureOf(first.rawBody));
    const metaEventId = first.headers['x-hookrail-meta-event-id'];

    const sent = await waitFor('the meta event Success', async () => {
      const res = await h.call('GET', `${base}/${metaEventId}`, { key: p.key });
      return res.body.data?.status === 'Success' ? res : undefined;
    });
    expect(sent.status).toBe(200);
    expect(sent.body.data).toMatchObject({
      uid: metaEventId,
      project_id: p.id,
      event_type: 'endpoint.created',
      attempt: { response_data: 'ok', response_http_header: { 'content-type': 'text/plain' } },
      metadata: { data: payload, raw: first.body, num_trials: 1, next_send_time: null },
    });
    expect(sent.body.data.attempt.request_http_header['X-Hookrail-Signature']).toBe(
      signatureOf(first.rawBody),
    );

    const list = await h.call('GET', `${base}?status=Success&event_type=endpoint.created`, { key: p.key });
    expect(list.status).toBe(200);
    expect(list.body.data.content.map((m: { uid: string }) => m.uid)).toEqual([metaEventId]);
    const none = await h.call('GET', `${base}?status=Failure`, { key: p.key });
    expect(none.body.data.content).toEqual([]);

    const resent = await h.call('PUT', `${base}/${metaEventId}/resend`, { key: p.key });
    expect(resent.status).toBe(200);
    expect(resent.body.data).toMatchObject({ uid: metaEventId, status: 'Scheduled' });

    const second = await waitFor('the resent meta event at the receiver', () => receiver.requests[1]);
    expect(second.rawBody.equals(first.rawBody)).toBe(true);
    expect(second.headers['x-hookrail-meta-event-id']).toBe(metaEventId);
    expect(second.headers['x-hookrail-signature']).toBe(signatureOf(second.rawBody));
    const again = await waitFor('the resent meta event Success', async () => {
      const res = await h.call('GET', `${base}/${metaEventId}`, { key: p.key });
      return res.body.data?.metadata.num_trials === 2 && res.body.data.status === 'Success' ? res : undefined;
    });
    expect(again.body.data.metadata.next_send_time).toBeNull();
    expect(receiver.count()).toBe(2);
  });

  it('presents a meta event that was never sent (Discarded, no attempt) and 404s unknown ones', async () => {
    const p = await h.createProject('outgoing', {
      meta_event: { is_enabled: true, url: `${receiver.url}/meta`, event_type: ['endpoint.deleted'] },
    });
    const base = `/v1/projects/${p.id}/meta-events`;
    await h.call('POST', `/v1/projects/${p.id}/endpoints`, {
      key: p.key,
      body: { name: 'not selected', url: 'https://example.com/hook' },
    });
    const listed = await waitFor('a Discarded meta event', async () => {
      const res = await h.call('GET', base, { key: p.key });
      return res.body.data.content[0]?.status === 'Discarded' ? res.body.data.content[0] : undefined;
    });
    expect(listed).toMatchObject({ event_type: 'endpoint.created', attempt: null });
    const one = await h.call('GET', `${base}/${listed.uid}`, { key: p.key });
    expect(one.body.data).toMatchObject({
      status: 'Discarded',
      status_reason: 'meta event type endpoint.created is not selected',
      attempt: null,
    });

    expect((await h.call('GET', `${base}/01ARZ3NDEKTSV4RRFFQ69G5FAV`, { key: p.key })).status).toBe(404);
    expect((await h.call('PUT', `${base}/01ARZ3NDEKTSV4RRFFQ69G5FAV/resend`, { key: p.key })).status).toBe(
      404,
    );
    const bad = await h.call('GET', `${base}?status=Done`, { key: p.key });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('status');
  });
});
