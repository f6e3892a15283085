import { newId, newProjectId } from '@hookrail/domain';
import { localMongoBinary, PrivateMongo } from '@hookrail/testkit';
import { Store } from '../store';
import { attempt, deliveryDoc, eventDoc } from '@hookrail/testkit';
import { externalTarget } from './contract-db';

/**
 * Acknowledged writes survive a SIGKILL of the server. Runs the local stack's own server binary
 * on a spare port with a storage directory of its own (testkit PrivateMongo), writes through the
 * store (its write concern), kills it with SIGKILL right after the last acknowledgement, starts it
 * again on the same directory and reads everything back.
 */
const BIN = externalTarget ? null : localMongoBinary();
const skipReason = externalTarget
  ? 'HOOKRAIL_MONGODB_URI names another server: the SIGKILL test needs the local server binary'
  : 'the local server binary is not installed (deploy/local/provision.sh installs it)';
const maybe = BIN ? describe : describe.skip;
if (!BIN) console.warn(`store contract: durability under SIGKILL skipped: ${skipReason}`);

maybe('store contract: durability', () => {
  const EVENTS = 5000;
  const BATCH = 250;
  let mongo: PrivateMongo;

  beforeAll(async () => {
    mongo = await PrivateMongo.start(BIN!);
  }, 60_000);
  afterAll(async () => {
    await mongo?.stop();
  });

  it('keeps every acknowledged insert and $inc when the server is killed with SIGKILL right after the last acknowledgement', async () => {
    const url = mongo.url('hookrail-durability');
    const projectId = newProjectId();
    const ids: string[] = [];
    const counter = deliveryDoc(projectId, { event_id: newId(), endpoint_id: newId() });

    const store = await Store.connect(url, 'durability');
    await store.migrations().up();
    await store.deliveries.insertManyIfAbsent([counter]);
    let batches = 0;
    for (let i = 0; i < EVENTS; i += BATCH) {
      const docs = Array.from({ length: BATCH }, () => eventDoc(projectId));
      await store.events.insertManyIfAbsent(docs);
      ids.push(...docs.map((d) => d._id));
      await store.deliveries.recordOutcomes([
        {
          delivery: counter,
          status: 'Retry',
          reason: null,
          nextAttemptAt: null,
          attempt: attempt(`a-${batches}`),
          retrySpent: false,
          firstRecord: false,
        },
      ]);
      batches++;
    }
    // the last acknowledgement is in: kill at once, before anything else reaches the server
    await mongo.kill();
    await store.close().catch(() => undefined);

    await mongo.restart();
    const after = await Store.connect(url, 'durability-after');
    try {
      const stored = (await after.events.list(projectId, {}, EVENTS + 1)).map((e) => e._id);
      expect(stored).toHaveLength(EVENTS);
      expect(stored).toEqual([...ids].sort());
      expect((await after.deliveries.findById(projectId, counter._id))?.attempts_made).toBe(batches);
    } finally {
      await after.close();
    }
  }, 120_000);
});
