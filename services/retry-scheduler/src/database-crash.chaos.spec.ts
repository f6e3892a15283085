import { Store } from '@hookrail/store';
import { localMongoBinary, Pipeline, PrivateMongo, testBus, uniquePrefix, waitFor } from '@hookrail/testkit';

jest.setTimeout(240_000);

const BIN = localMongoBinary();
const maybe = BIN ? describe : describe.skip;
if (!BIN) console.warn('database crash test skipped: the local MongoDB-protocol server is not installed');

/**
 * Once accepted, an event is never lost, even when the database dies: a steady load runs through
 * real dispatcher and retry-scheduler processes on a database server of the test's own, which is
 * SIGKILLed mid-load and started again 3 s later. Offsets are committed only after the documents
 * are acknowledged (journaled), so every accepted event must reach the receiver, duplicates only
 * with the same delivery id, and every delivery must end up recorded in the database.
 */
maybe('zero loss through a database crash', () => {
  const prefix = uniquePrefix('dbcrash');
  const bus = testBus(prefix);
  let mongo: PrivateMongo;
  let store: Store;
  let pipeline: Pipeline;

  beforeAll(async () => {
    mongo = await PrivateMongo.start(BIN!);
    const url = mongo.url('hookrail-dbcrash');
    store = await Store.connect(url, 'dbcrash-test');
    await store.migrate();
    await bus.ensureTopics();
    pipeline = new Pipeline({
      prefix,
      store,
      bus,
      failOncePercent: 10,
      sessionTimeoutMs: 10_000,
      mongodbUrl: url,
    });
    await pipeline.setUp();
    await Promise.all([pipeline.start('dispatcher'), pipeline.start('retry-scheduler')]);
  });
  afterAll(async () => {
    await pipeline?.stopAll();
    await bus.close();
    await store?.close();
    await mongo?.stop();
  });

  it('delivers and records every accepted event through a SIGKILL of the database server', async () => {
    let back: Promise<void> | undefined;
    await pipeline.load(20, 14, async (second) => {
      if (second === 5) {
        await mongo.kill();
        back = new Promise((r) => setTimeout(r, 3000)).then(() => mongo.restart());
      }
    });
    await back;
    const accepted = pipeline.accepted.size;
    expect(accepted).toBeGreaterThan(200);
    await pipeline.waitAllDelivered(150_000);
    console.log(`database SIGKILL figures: ${JSON.stringify(pipeline.figures())}`);
    expect(pipeline.mixedDeliveryIds()).toEqual([]);
    // The record caught up too: every accepted event is stored and its delivery succeeded.
    const ids = [...pipeline.accepted.keys()];
    await waitFor(
      'every event stored with its delivery recorded as Success',
      async () => {
        const events = await store.events.findByIds(pipeline.projectId, ids);
        return events.length === ids.length && events.every((e) => e.status === 'Success');
      },
      { timeoutMs: 60_000, intervalMs: 1000 },
    );
  });
});
