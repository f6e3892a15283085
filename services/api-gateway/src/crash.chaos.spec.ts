import type { Store } from '@hookrail/store';
import { connectTestStore, Pipeline, PIPELINE_ADMIN_KEY, testBus, uniquePrefix } from '@hookrail/testkit';

jest.setTimeout(180_000);

/**
 * The events API is SIGKILLed mid-load and restarted on the same port while clients keep sending
 * (fanout to two endpoints, through real dispatcher and retry-scheduler processes, 10 % of first
 * attempts failing). Every event answered 201 must reach each endpoint, any duplicate with the same
 * delivery id. Requests that got no answer (in flight at the kill, or refused while the gateway was
 * down) may be lost: they are counted apart, as clients retry them.
 */
describe('api-gateway killed mid-load', () => {
  const prefix = uniquePrefix('gwcrash');
  const bus = testBus(prefix);
  let store: Store;
  let pipeline: Pipeline;
  let key: string;

  beforeAll(async () => {
    store = await connectTestStore();
    await bus.ensureTopics();
    pipeline = new Pipeline({
      prefix,
      store,
      failOncePercent: 10,
      sessionTimeoutMs: 10_000,
      endpoints: 2,
      projectType: 'outgoing',
    });
    await pipeline.setUp();
    await Promise.all(
      (['api-gateway', 'dispatcher', 'retry-scheduler'] as const).map((s) => pipeline.start(s)),
    );
    const res = await fetch(`${pipeline.url('api-gateway')}/api/v1/projects/${pipeline.projectId}/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${PIPELINE_ADMIN_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'load' }),
    });
    if (res.status !== 201) throw new Error(`API key not issued: ${res.status} ${await res.text()}`);
    key = ((await res.json()) as { data: { key: string } }).data.key;
  });
  afterAll(async () => {
    await pipeline?.stopAll();
    await bus.close();
    await store?.close();
  });

  it('delivers every event answered 201 exactly once per endpoint through a SIGKILL of the gateway', async () => {
    const { acceptedWhenBack } = await pipeline.crashUnderHttpLoad(
      'api-gateway',
      { rate: 25, killAt: 5, afterRestart: 25 },
      (n) => ({
        url: `${pipeline.url('api-gateway')}/api/v1/projects/${pipeline.projectId}/events/fanout`,
        headers: { authorization: `Bearer ${key}` },
        body: { owner_id: 'owner', event_type: 'load.test', data: { n } },
        eventId: (body) => (body as { data: { uid: string } }).data.uid,
      }),
    );
    await pipeline.waitAllDelivered(120_000);
    console.log(`api-gateway SIGKILL figures: ${JSON.stringify(pipeline.figures())}`);
    expect(pipeline.mixedDeliveryIds()).toEqual([]);
    // The kill happened mid-load: requests went unanswered, and traffic was accepted around it.
    expect(pipeline.http.unanswered).toBeGreaterThan(0);
    expect(pipeline.http.accepted).toBeGreaterThanOrEqual(acceptedWhenBack + 25);
    expect(acceptedWhenBack).toBeGreaterThan(50);
    // Never a 4xx for a valid event, even while the gateway starts again (503 with Retry-After).
    expect(Object.keys(pipeline.http.refused).filter((status) => status !== '503')).toEqual([]);
    expect(pipeline.http.refusedWithoutRetryAfter).toBe(0);
    expect(pipeline.failedOnce.size).toBeGreaterThan(5);
  });
});
