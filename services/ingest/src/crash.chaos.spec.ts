import type { Store } from '@hookrail/store';
import { connectTestStore, Pipeline, testBus, uniquePrefix } from '@hookrail/testkit';

jest.setTimeout(180_000);

/**
 * Ingest is SIGKILLed mid-load and restarted on the same port while the provider keeps sending
 * (an HTTP source subscribed by two endpoints, through real dispatcher and retry-scheduler
 * processes, 10 % of first attempts failing). Every event answered 2xx must reach each endpoint,
 * any duplicate with the same delivery id. Requests that got no answer (in flight at the kill, or
 * refused while ingest was down) or a 503 may be lost: they are counted apart, as providers retry
 * them.
 */
describe('ingest killed mid-load', () => {
  const prefix = uniquePrefix('ingestcrash');
  const bus = testBus(prefix);
  let store: Store;
  let pipeline: Pipeline;

  beforeAll(async () => {
    store = await connectTestStore();
    await bus.ensureTopics();
    pipeline = new Pipeline({ prefix, store, failOncePercent: 10, sessionTimeoutMs: 10_000, endpoints: 2 });
    await pipeline.setUp();
    await Promise.all((['ingest', 'dispatcher', 'retry-scheduler'] as const).map((s) => pipeline.start(s)));
  });
  afterAll(async () => {
    await pipeline?.stopAll();
    await bus.close();
    await store?.close();
  });

  it('delivers every event answered 2xx exactly once per endpoint through a SIGKILL of ingest', async () => {
    const { acceptedWhenBack } = await pipeline.crashUnderHttpLoad(
      'ingest',
      { rate: 25, killAt: 5, afterRestart: 25 },
      (n) => ({
        url: `${pipeline.url('ingest')}/ingest/${pipeline.source.mask_id}`,
        body: { n },
        eventId: (body) => (body as { data: { event_id: string } }).data.event_id,
      }),
    );
    await pipeline.waitAllDelivered(120_000);
    console.log(`ingest SIGKILL figures: ${JSON.stringify(pipeline.figures())}`);
    expect(pipeline.mixedDeliveryIds()).toEqual([]);
    // The kill happened mid-load: requests went unanswered, and traffic was accepted around it.
    expect(pipeline.http.unanswered).toBeGreaterThan(0);
    expect(acceptedWhenBack).toBeGreaterThan(50);
    expect(pipeline.http.accepted).toBeGreaterThanOrEqual(acceptedWhenBack + 25);
    // Never a 4xx for a valid event, even while ingest starts again (503 with Retry-After).
    expect(Object.keys(pipeline.http.refused).filter((status) => status !== '503')).toEqual([]);
    expect(pipeline.http.refusedWithoutRetryAfter).toBe(0);
    expect(pipeline.failedOnce.size).toBeGreaterThan(5);
  });
});
