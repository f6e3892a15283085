import type { Store } from '@hookrail/store';
import {
  connectTestStore,
  Pipeline,
  startReceiver,
  testBus,
  uniquePrefix,
  waitFor,
  type Receiver,
} from '@hookrail/testkit';

jest.setTimeout(180_000);

/**
 * The meta-event service is SIGKILLed mid-load and restarted: a project with meta events on
 * (`eventdelivery.success` only, to an HTTP receiver of the test), events through real dispatcher,
 * retry-scheduler and meta-event processes, 10 % of first attempts failing. Every delivery that
 * succeeded is due one `eventdelivery.success` meta event: each must reach the meta receiver at
 * least once, a duplicate only under the same meta event id (the id is derived from the message's
 * topic position, so a redelivered message finds the same record).
 */
describe('meta-event killed mid-load', () => {
  const prefix = uniquePrefix('metacrash');
  const bus = testBus(prefix);
  /** Delivery id → ids of the meta events received for it. */
  const metaIds = new Map<string, Set<string>>();
  const metaTypes = new Set<string>();
  let metaRequests = 0;
  let meta: Receiver;
  let store: Store;
  let pipeline: Pipeline;

  beforeAll(async () => {
    store = await connectTestStore();
    await bus.ensureTopics();
    meta = await startReceiver({
      countOnly: true,
      onRequest: (req) => {
        metaRequests++;
        const body = JSON.parse(req.body) as { event_type: string; data: { delivery_id: string } };
        metaTypes.add(body.event_type);
        let ids = metaIds.get(body.data.delivery_id);
        if (!ids) metaIds.set(body.data.delivery_id, (ids = new Set()));
        ids.add(req.headers['x-hookrail-meta-event-id']);
      },
    });
    pipeline = new Pipeline({
      prefix,
      store,
      bus,
      failOncePercent: 10,
      sessionTimeoutMs: 10_000,
      projectConfig: {
        meta_event: {
          is_enabled: true,
          url: `${meta.url}/meta`,
          secret: 'meta-secret-0123456789',
          event_type: ['eventdelivery.success'],
        },
      },
    });
    await pipeline.setUp();
    await Promise.all(
      (['dispatcher', 'retry-scheduler', 'meta-event'] as const).map((s) => pipeline.start(s)),
    );
  });
  afterAll(async () => {
    await pipeline?.stopAll();
    await meta?.close();
    await bus.close();
    await store?.close();
  });

  /** Delivery ids the endpoint answered 2xx: each is due an `eventdelivery.success`. */
  const succeeded = () =>
    [...pipeline.seen.values()].flatMap((receipts) =>
      [...receipts.values()].filter((r) => r.succeededAt !== undefined).flatMap((r) => [...r.deliveryIds]),
    );

  it('sends every eventdelivery.success meta event due at least once through a SIGKILL of meta-event', async () => {
    let restarted: Promise<void> | undefined;
    let requestsAtKill = 0;
    await pipeline.load(20, 14, (second) => {
      // mid-stream: once meta events are flowing (a slow start must not make it a kill before any)
      if (second >= 5 && restarted === undefined && metaRequests > 0) {
        requestsAtKill = metaRequests;
        pipeline.kill('meta-event');
        restarted = pipeline.start('meta-event');
      }
    });
    await restarted;
    await pipeline.waitAllDelivered(120_000);
    const due = succeeded();
    const missing = () => due.filter((id) => !metaIds.has(id));
    await waitFor('every meta event due received', () => missing().length === 0, {
      timeoutMs: 90_000,
      intervalMs: 500,
    }).catch((err: Error) => {
      throw new Error(
        `${err.message}: ${missing().length} of ${due.length} missing\n${pipeline.recentLogs()}`,
      );
    });
    const figures = {
      events_accepted: pipeline.accepted.size,
      meta_due: due.length,
      meta_requests: metaRequests,
      meta_lost: missing().length,
      meta_duplicates: metaRequests - [...metaIds.values()].reduce((n, ids) => n + ids.size, 0),
      meta_sent_before_kill: requestsAtKill,
    };
    console.log(`meta-event SIGKILL figures: ${JSON.stringify(figures)}`);
    // Duplicates only under the same meta event id; only the selected type is sent.
    expect([...metaIds.entries()].filter(([, ids]) => ids.size !== 1)).toEqual([]);
    expect([...metaTypes]).toEqual(['eventdelivery.success']);
    // The kill happened mid-load: meta events were flowing before it.
    expect(requestsAtKill).toBeGreaterThan(0);
    expect(due.length).toBeGreaterThan(200);
    expect(pipeline.failedOnce.size).toBeGreaterThan(5);
  });
});
