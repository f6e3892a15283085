import type { Store } from '@hookrail/store';
import {
  connectTestStore,
  localKafkaLibs,
  Pipeline,
  PrivateKafka,
  testBus,
  uniquePrefix,
  type HttpTally,
} from '@hookrail/testkit';
import type { Bus } from '@hookrail/bus';

jest.setTimeout(240_000);

const libs = localKafkaLibs();
if (!libs) throw new Error('the local Kafka jars are missing: run `bash deploy/local/provision.sh`');

/**
 * Kafka itself dies mid-load: a private broker under real ingest, dispatcher and retry-scheduler
 * processes is SIGKILLed (its data kept) and restarted 4 s later, while a provider keeps sending
 * to an HTTP source subscribed by two endpoints (10 % of first attempts failing). While Kafka is
 * down ingest answers 503 with Retry-After, never 2xx and never silence; once it is back, events
 * are accepted again and every event answered 2xx, before, during or after, reaches each endpoint,
 * any duplicate with the same delivery id. Requests answered 503 are the provider's to retry.
 */
describe('Kafka SIGKILLed and restarted mid-load', () => {
  const prefix = uniquePrefix('kafkarestart');
  let kafka: PrivateKafka;
  let bus: Bus;
  let store: Store;
  let pipeline: Pipeline;

  beforeAll(async () => {
    kafka = await PrivateKafka.start(libs);
    bus = testBus(prefix, kafka.brokers);
    await bus.ensureTopics();
    store = await connectTestStore();
    pipeline = new Pipeline({
      prefix,
      store,
      failOncePercent: 10,
      sessionTimeoutMs: 10_000,
      endpoints: 2,
      kafkaBrokers: kafka.brokers,
    });
    await pipeline.setUp();
    await Promise.all((['ingest', 'dispatcher', 'retry-scheduler'] as const).map((s) => pipeline.start(s)));
  });
  afterAll(async () => {
    await pipeline?.stopAll();
    await bus?.close();
    await store?.close();
    await kafka?.remove();
  });

  it('answers 503 while Kafka is down and delivers every event answered 2xx once per endpoint', async () => {
    const snapshot = (): HttpTally => ({ ...pipeline.http, refused: { ...pipeline.http.refused } });
    let atKill: HttpTally | undefined;
    let atBack: HttpTally | undefined;
    let back: Promise<void> | undefined;
    await pipeline.loadOverHttp(
      25,
      {
        seconds: 10,
        // and on until 25 events were accepted after Kafka came back
        more: () => atBack === undefined || pipeline.http.accepted < atBack.accepted + 25,
        maxSeconds: 90,
      },
      (n) => ({
        url: `${pipeline.url('ingest')}/ingest/${pipeline.source.mask_id}`,
        body: { n },
        eventId: (body) => (body as { data: { event_id: string } }).data.event_id,
      }),
      async (second) => {
        if (second !== 5) return;
        atKill = snapshot();
        await kafka.kill();
        back = new Promise((r) => setTimeout(r, 4000))
          .then(() => kafka.restart())
          .then(() => void (atBack = snapshot()));
      },
    );
    await back;
    await pipeline.waitAllDelivered(150_000);
    const refusedDuringOutage = (atBack!.refused[503] ?? 0) - (atKill!.refused[503] ?? 0);
    console.log(
      `Kafka restart figures: ${JSON.stringify({ ...pipeline.figures(), refused_503_during_outage: refusedDuringOutage, accepted_before_kill: atKill!.accepted })}`,
    );
    expect(pipeline.mixedDeliveryIds()).toEqual([]);
    // Accepted before the outage and after it; refused with 503 and Retry-After during it.
    expect(atKill!.accepted).toBeGreaterThan(50);
    expect(pipeline.http.accepted).toBeGreaterThanOrEqual(atBack!.accepted + 25);
    expect(refusedDuringOutage).toBeGreaterThan(25);
    expect(pipeline.http.refusedWithoutRetryAfter).toBe(0);
    expect(Object.keys(pipeline.http.refused).filter((status) => status !== '503')).toEqual([]);
    // Ingest itself stayed up: every request got an answer (within the client's 10 s).
    expect(pipeline.http.unanswered).toBe(0);
    expect(pipeline.failedOnce.size).toBeGreaterThan(5);
  });
});
