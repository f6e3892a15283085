import type { RunningService } from '@hookrail/runtime';
import { ALL_ENDPOINTS } from '@hookrail/store';
import { startReceiver, startTestService, testConfig, waitFor, type Receiver } from '@hookrail/testkit';
import { definition as dispatcher } from '../../../dispatcher/src/service';
import { ADMIN_KEY, GatewayHarness } from '../testing/gateway-harness';

jest.setTimeout(120_000);

/**
 * Real deliveries through a real dispatcher write the per-minute counters, and the delivery-stats
 * route answers them: outcomes, latency percentiles from the histogram, the retry backlog; and
 * the event types each endpoint was sent (the portal's catalog).
 */
describe('delivery stats from the per-minute counters', () => {
  const h = new GatewayHarness();
  let worker: RunningService;
  let receiver: Receiver;

  beforeAll(async () => {
    await h.start();
    // No retry scheduler runs here: a failed delivery stays in Retry, in the backlog.
    worker = await startTestService(
      dispatcher(testConfig('dispatcher', { HOOKRAIL_KAFKA_TOPIC_PREFIX: h.prefix })),
    );
    receiver = await startReceiver({
      respond: (req) => (req.path.startsWith('/bad') ? { status: 500 } : { status: 200 }),
      delayMs: 600,
    });
  });
  afterAll(async () => {
    await receiver?.close();
    await worker?.stop();
    await h.stop();
  });

  async function endpoint(p: { id: string; key: string }, name: string) {
    const res = await h.call('POST', `/v1/projects/${p.id}/endpoints`, {
      key: p.key,
      body: { name, url: `${receiver.url}/${name}` },
    });
    expect(res.status).toBe(201);
    return res.body.data.uid as string;
  }
  const send = async (p: { id: string; key: string }, endpointId: string) => {
    const res = await h.call('POST', `/v1/projects/${p.id}/events`, {
      key: p.key,
      body: { endpoint_id: endpointId, event_type: 'invoice.paid', data: { n: 1 } },
    });
    expect(res.status).toBe(201);
  };
  const stats = (p: { id: string; key: string }, query = '') =>
    h.call('GET', `/v1/projects/${p.id}/delivery-stats${query}`, { key: p.key });

  it('counts real outcomes per endpoint and for the project, with latency and the retry backlog', async () => {
    const p = await h.createProject();
    const ok = await endpoint(p, 'ok');
    const bad = await endpoint(p, 'bad');
    for (let i = 0; i < 3; i++) await send(p, ok);
    for (let i = 0; i < 2; i++) await send(p, bad);

    const project = await waitFor(
      'counters of 5 outcomes',
      async () => {
        const res = await stats(p);
        const t = res.body.data?.totals;
        return t && t.Success === 3 && t.Retry === 2 ? res.body.data : undefined;
      },
      { timeoutMs: 40_000 },
    );
    expect(project.window).toBe('hour');
    expect(project.step_seconds).toBe(60);
    expect(project.points).toHaveLength(60);
    expect(project.totals).toEqual({ Success: 3, Retry: 2, Failure: 0, Discarded: 0 });
    // the receiver waits 600 ms: every attempt is in the 500–1000 ms bucket or slower
    expect(project.p50_ms).toBeGreaterThanOrEqual(500);
    expect(project.p95_ms).toBeGreaterThanOrEqual(project.p50_ms);
    expect(project.retry_backlog).toEqual({ count: 2, capped: false });
    const sum = (k: string) =>
      project.points.reduce((n: number, pt: { outcomes: Record<string, number> }) => n + pt.outcomes[k], 0);
    expect(sum('Success')).toBe(3);

    const okStats = (await stats(p, `?endpointId=${ok}&window=day`)).body.data;
    expect(okStats.endpoint_id).toBe(ok);
    expect(okStats.step_seconds).toBe(600);
    expect(okStats.points).toHaveLength(144);
    expect(okStats.totals).toEqual({ Success: 3, Retry: 0, Failure: 0, Discarded: 0 });
    expect(okStats.retry_backlog.count).toBe(0);
    const badStats = (await stats(p, `?endpoint_id=${bad}`)).body.data;
    expect(badStats.totals).toEqual({ Success: 0, Retry: 2, Failure: 0, Discarded: 0 });
    expect(badStats.retry_backlog.count).toBe(2);

    // What the store keeps: one small document per minute for each endpoint and the project.
    const from = new Date(Date.now() - 3_600_000);
    const to = new Date(Date.now() + 120_000);
    const rows = await h.store.deliveryStats.series(p.id, ALL_ENDPOINTS, from, to);
    expect(rows.reduce((n, r) => n + (r.outcomes.Success ?? 0), 0)).toBe(3);
    expect(await h.store.deliveryStats.series(p.id, ok, from, to)).not.toHaveLength(0);
    // ...and, with them, the portal's catalog of event types each endpoint was sent
    const types = await h.store.eventTypes.listForEndpoints(p.id, [ok, bad], 10);
    expect(types.map((t) => `${t.endpoint_id === ok ? 'ok' : 'bad'} ${t.event_type}`).sort()).toEqual([
      'bad invoice.paid',
      'ok invoice.paid',
    ]);
  });

  it('needs a key of the project and refuses another project and bad input with a clear 4xx', async () => {
    const a = await h.createProject();
    const b = await h.createProject();
    const aEndpoint = await endpoint(a, 'a-ok');
    const none = await h.call('GET', `/v1/projects/${a.id}/delivery-stats`, { unchecked: true });
    expect(none.status).toBe(401);
    const other = await h.call('GET', `/v1/projects/${a.id}/delivery-stats`, { key: b.key, unchecked: true });
    expect(other.status).toBe(403);
    // B's path with A's endpoint: not found, never A's figures
    const foreign = await h.call('GET', `/v1/projects/${b.id}/delivery-stats?endpointId=${aEndpoint}`, {
      key: b.key,
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toMatch(/endpoint/);
    const window = await h.call('GET', `/v1/projects/${a.id}/delivery-stats?window=year`, { key: a.key });
    expect(window.status).toBe(400);
    expect(JSON.stringify(window.body)).toMatch(/window/);
    const admin = await h.call('GET', `/v1/projects/${b.id}/delivery-stats`, { key: ADMIN_KEY });
    expect(admin.status).toBe(200);
    expect(admin.body.data.totals).toEqual({ Success: 0, Retry: 0, Failure: 0, Discarded: 0 });
  });
});
