import { createTopicsWithLeaders, deleteTopicsGone, testBus, waitFor } from '@hookrail/testkit';
import type { Bus } from '@hookrail/bus';
import { GatewayHarness } from '../testing/gateway-harness';

jest.setTimeout(120_000);

const ACCEPT_TIMEOUT_MS = 1500;
/**
 * The accept timeout and a busy host's slack: what it tells apart is an answer at the timeout from a
 * request held through the producer's own retries (tens of seconds).
 */
const ANSWERED_WITHIN_MS = 3 * ACCEPT_TIMEOUT_MS;

/**
 * Kafka cannot take events (the gateway's private `events` topic is deleted, so every produce
 * fails; the shared Kafka keeps serving everyone else): the events API answers 503 with
 * Retry-After within the accept timeout instead of holding the request for the producer's own
 * retries, and once the topic is back every event answered 201 is in Kafka.
 */
describe('events API while Kafka does not acknowledge', () => {
  const h = new GatewayHarness();
  let bus: Bus;
  beforeAll(() => h.start({ HOOKRAIL_KAFKA_ACCEPT_TIMEOUT_MS: String(ACCEPT_TIMEOUT_MS) }));
  afterAll(async () => {
    await bus?.close();
    await h.stop();
  });

  it('answers 503 with Retry-After promptly for every kind of event, and loses nothing it answered 201', async () => {
    const p = await h.createProject();
    const ep = await h.call('POST', `/v1/projects/${p.id}/endpoints`, {
      key: p.key,
      body: { name: 'e', url: 'https://example.com/hook', owner_id: 'o1' },
    });
    const kinds = [
      { path: 'events', body: { endpoint_id: ep.body.data.uid, event_type: 't', data: {} } },
      { path: 'events/fanout', body: { owner_id: 'o1', event_type: 't', data: {} } },
      { path: 'events/broadcast', body: { event_type: 't', data: {} } },
    ];
    const accepted: string[] = [];
    const send = async (i: number) => {
      const kind = kinds[i % kinds.length];
      const t0 = Date.now();
      const res = await h.call('POST', `/v1/projects/${p.id}/${kind.path}`, {
        key: p.key,
        body: { ...kind.body, data: { i } },
      });
      if (res.status === 201) accepted.push(res.body.data.uid);
      return { status: res.status, ms: Date.now() - t0, retryAfter: res.headers.get('retry-after') };
    };
    expect((await send(0)).status).toBe(201);
    accepted.length = 0; // the topic is about to be deleted with this one in it: not the system's loss

    bus = testBus(h.prefix);
    const admin = bus.kafka.admin();
    await admin.connect();
    const topic = bus.topic('events');
    await deleteTopicsGone(admin, [topic]);

    // Concurrent requests while Kafka refuses: each answers within the timeout (plus slack).
    const during = await Promise.all(Array.from({ length: 9 }, (_, i) => send(i)));
    // And the next ones at once: Kafka is known to be unavailable.
    for (let i = 0; i < 6; i++) during.push(await send(i));
    for (const r of during) {
      expect(r.status).toBe(503);
      expect(r.retryAfter).toBeTruthy();
      expect(r.ms).toBeLessThan(ANSWERED_WITHIN_MS);
    }
    // Under the accept timeout they would otherwise wait for (a busy host adds its share, so five
    // of six are enough).
    const quick = during.slice(9).filter((r) => r.ms < ACCEPT_TIMEOUT_MS - 500).length;
    expect(quick).toBeGreaterThanOrEqual(5);

    await createTopicsWithLeaders(admin, [{ topic, numPartitions: 3 }]);
    await admin.disconnect();
    // Back: requests keep answering promptly, and soon with 201.
    await waitFor(
      'events accepted again',
      async () => {
        const r = await send(0);
        expect(r.ms).toBeLessThan(ANSWERED_WITHIN_MS);
        return r.status === 201;
      },
      { timeoutMs: 60_000, intervalMs: 300 },
    );
    for (let i = 0; i < 12; i++) expect((await send(i)).status).toBe(201);

    const seen = new Set<string>();
    await bus.consume('kafka-down-check', {
      topic: 'events',
      handle: async (m) => void seen.add(m.event_id),
    });
    await waitFor('every event answered 201 in Kafka', () => accepted.every((id) => seen.has(id)), {
      timeoutMs: 30_000,
    }).catch((err: Error) => {
      throw new Error(
        `${err.message}: ${accepted.filter((id) => !seen.has(id)).length} of ${accepted.length} missing`,
      );
    });
    expect(accepted.length).toBeGreaterThanOrEqual(13);
  });
});
