import { setTimeout as sleep } from 'node:timers/promises';
import type { AuditRecord } from '@hookrail/api-contract';
import type { RunningService } from '@hookrail/runtime';
import { startTestService, testConfig, waitFor } from '@hookrail/testkit';
import { definition as metaEvent } from '../../../meta-event/src/service';
import { GatewayHarness } from '../testing/gateway-harness';
import { seedEndpoint, seedLink } from '../portal/testing/portal-fixtures';
import { launchChromium } from '../portal/testing/portal-browser';
import { openSignedIn } from '../console/testing/console-sign-in';

jest.setTimeout(90_000);

/** Short enough for a test to wait for, long enough for the burst below to fit in one window. */
const WINDOW_MS = 3_000;

/**
 * Sent events in the audit log, end to end: the gateway counts calls of the events API per
 * window, project, actor, operation, status and address, and publishes one record per aggregate
 * when its window ends (or the gateway stops); a real meta-event service stores them and the
 * audit log's list reads them back.
 */
describe('audit records of sent events', () => {
  const h = new GatewayHarness();
  let worker: RunningService | undefined;
  let p: { id: string; key: string };
  let endpointId: string;
  const keys: Record<'owner' | 'second' | 'viewer', { uid: string; key: string }> = {} as never;
  const sentIds: string[] = [];

  const newKey = async (name: string, role?: string) => {
    const res = await h.call('POST', `/v1/projects/${p.id}/keys`, { key: p.key, body: { name, role } });
    expect(res.status).toBe(201);
    return { uid: res.body.data.uid as string, key: res.body.data.key as string };
  };
  const send = (key: string, body: Record<string, unknown>) =>
    h.call('POST', `/v1/projects/${p.id}/events`, { key, body, headers: { 'user-agent': 'publisher/1' } });
  const event = (n: number) => ({ endpoint_id: endpointId, event_type: 'order.created', data: { n } });

  /** Just after a window starts (windows are aligned on the epoch): a short burst fits in it. */
  const atWindowStart = () => sleep(WINDOW_MS - (Date.now() % WINDOW_MS) + 50);

  /** The project's records matching `query`, once `count` of them are stored (the consumer's pace). */
  const records = (query: string, count: number) =>
    waitFor(
      `${count} audit records for ${query}`,
      async () => {
        const res = await h.call('GET', `/v1/projects/${p.id}/audit-log?${query}`, { key: p.key });
        expect(res.status).toBe(200);
        const content = res.body.data.content as AuditRecord[];
        return content.length >= count ? content : undefined;
      },
      { timeoutMs: 40_000 },
    );

  beforeAll(async () => {
    await h.start({ HOOKRAIL_AUDIT_PUBLISH_WINDOW_MS: String(WINDOW_MS) });
    worker = await startTestService(
      metaEvent(testConfig('meta-event', { HOOKRAIL_KAFKA_TOPIC_PREFIX: h.prefix })),
    );
    p = await h.createProject();
    const listed = await h.call('GET', `/v1/projects/${p.id}/keys`, { key: p.key });
    keys.owner = { uid: listed.body.data.content[0].uid, key: p.key };
    keys.second = await newKey('second');
    keys.viewer = await newKey('dashboard', 'viewer');
    endpointId = (await h.createSourceAndEndpoint(p)).endpointId;
    await atWindowStart();
    for (let n = 0; n < 5; n++) {
      const sent = await send(keys.owner.key, event(n));
      expect(sent.status).toBe(201);
      sentIds.push(sent.body.data.uid);
    }
    for (let n = 0; n < 2; n++) expect((await send(keys.second.key, event(n))).status).toBe(201);
    expect((await send(keys.viewer.key, event(0))).status).toBe(403);
    expect((await send(keys.owner.key, { endpoint_id: endpointId, data: {} })).status).toBe(400);
  });
  afterAll(async () => {
    await worker?.stop();
    await h.stop();
  });

  it('records the events one key sent in a window as one record with their count', async () => {
    const owners = await records(`operation=createEvent&actor=${keys.owner.uid}`, 2);
    // the refusal is an aggregate of its own (same window end: either may be listed first)
    expect(owners.map((r) => r.status).sort()).toEqual([201, 400]);
    const record = owners.find((r) => r.status === 201)!;
    expect(record).toMatchObject({
      project_id: p.id,
      actor: { kind: 'api_key', via: 'api', key_id: keys.owner.uid, role: 'owner' },
      operation: 'createEvent',
      method: 'POST',
      path: `/api/v1/projects/${p.id}/events`,
      resource: { type: 'event', id: null },
      status: 201,
      user_agent: 'publisher/1',
      fields: expect.arrayContaining(['endpoint_id', 'event_type', 'data']),
      aggregate: { count: 5, event_ids: sentIds },
    });
    const { first_at, last_at } = record.aggregate!;
    expect(first_at <= last_at && last_at <= record.created_at).toBe(true);
    // one of the events it names finds it too
    const byEvent = await records(`resource=${sentIds[2]}`, 1);
    expect(byEvent.map((r) => r.uid)).toEqual([record.uid]);
    // the console's audit log page shows the count and the events
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      page.setDefaultTimeout(15_000);
      await openSignedIn(
        page,
        `${h.gateway.url}/console/projects/${p.id}/audit-log?operation=createEvent`,
        p.key,
      );
      const row = page.getByRole('row').filter({ hasText: '5 calls' });
      await row.first().waitFor();
      expect(await row.first().innerText()).toContain(sentIds[0]);
    } finally {
      await browser.close();
    }
  });

  it('keeps two keys apart, and a refusal apart with its status', async () => {
    const [second] = await records(`operation=createEvent&actor=${keys.second.uid}`, 1);
    expect(second).toMatchObject({
      actor: { key_id: keys.second.uid, key_name: 'second' },
      status: 201,
      aggregate: { count: 2 },
    });
    expect(second.aggregate!.event_ids).toHaveLength(2);
    const [refused] = await records(`actor=${keys.viewer.uid}`, 1);
    expect(refused).toMatchObject({
      operation: 'createEvent',
      status: 403,
      actor: { key_name: 'dashboard', role: 'viewer' },
      aggregate: { count: 1, event_ids: [] },
    });
    const [invalid] = await records(`operation=createEvent&actor=${keys.owner.uid}`, 2).then((r) =>
      r.filter((x) => x.status === 400),
    );
    expect(invalid.aggregate).toMatchObject({ count: 1, event_ids: [] });
    const all = await records('operation=createEvent', 4);
    expect(all).toHaveLength(4);
  });

  it("records a portal link's test events by the link, and a link that may not send apart", async () => {
    const endpoint = await seedEndpoint(h.store, p.id as never, 'acme');
    const manager = await seedLink(h.store, p.id as never, { owner_id: 'acme', can_manage_endpoint: true });
    const reader = await seedLink(h.store, p.id as never, { owner_id: 'acme' });
    const test = { event_type: 'portal.test', data: { hello: 'world' } };
    const path = `/endpoints/${endpoint._id}/test-event`;
    await atWindowStart();
    expect((await h.portal('POST', path, manager.token, test)).status).toBe(201);
    expect((await h.portal('POST', path, manager.token, test)).status).toBe(201);
    expect((await h.portal('POST', path, reader.token, test)).status).toBe(403);
    const [sent] = await records(`actor=${manager.doc._id}`, 1);
    expect(sent).toMatchObject({
      operation: 'portalSendTestEvent',
      actor: { kind: 'portal_link', via: 'portal', portal_link_id: manager.doc._id },
      status: 201,
      aggregate: { count: 2 },
    });
    expect(sent.aggregate!.event_ids).toHaveLength(2);
    const [refused] = await records(`actor=${reader.doc._id}`, 1);
    expect(refused).toMatchObject({ operation: 'portalSendTestEvent', status: 403, aggregate: { count: 1 } });
  });

  it('records the open aggregates when a gateway stops gracefully, before their window ends', async () => {
    // a second gateway on the same topics whose window (an hour) only its stop can close
    const other = new GatewayHarness();
    await other.start({ HOOKRAIL_KAFKA_TOPIC_PREFIX: h.prefix, HOOKRAIL_AUDIT_PUBLISH_WINDOW_MS: '3600000' });
    try {
      for (let n = 0; n < 3; n++) {
        const sent = await other.call('POST', `/v1/projects/${p.id}/events/broadcast`, {
          key: keys.second.key,
          body: { event_type: 'order.created', data: { n } },
        });
        expect(sent.status).toBe(201);
      }
    } finally {
      await other.stop();
    }
    const [record] = await records(`operation=broadcastEvent`, 1);
    expect(record).toMatchObject({ actor: { key_id: keys.second.uid }, aggregate: { count: 3 } });
  });
});
