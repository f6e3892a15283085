import { newId, newProjectId, type ProjectId } from '@hookrail/domain';
import { attempt, deliveryDoc } from '@hookrail/testkit';
import { IDS_PER_QUERY } from '../base/scoped-ids';
import { openContractDb, type ContractDb } from '../contract/contract-db';
import type { DeliveryOutcome } from './delivery-outcome';
import type { DeliveryDoc, DeliveryStatus } from './delivery.schema';

// Failed retries that leave a delivery in Retry are appended beside its document; every read
// shows the delivery as if they had been written into it (docs/database.md, "Retry outcomes").
describe('deliveries: retry outcomes appended beside the document', () => {
  let db: ContractDb;
  beforeAll(async () => {
    db = await openContractDb('retry-outcomes');
  });
  afterAll(async () => {
    await db?.close();
  });

  const raw = (name: string) => db.conn.db!.collection<{ _id: string } & Record<string, unknown>>(name);
  let t = Date.now();
  const outcome = (
    delivery: DeliveryDoc,
    status: DeliveryStatus,
    uid: string,
    first = false,
  ): DeliveryOutcome => ({
    delivery,
    status,
    reason: `${status} (${uid})`,
    nextAttemptAt: status === 'Retry' ? new Date(++t + 60_000) : null,
    attempt: attempt(uid, { created_at: new Date(++t), http_status: status === 'Success' ? 200 : 500 }),
    retrySpent: status === 'Retry',
    firstRecord: first,
  });
  /** As the sender does: read the delivery, then record the attempt's outcome on what it read. */
  const attemptOnce = async (projectId: ProjectId, id: string, status: DeliveryStatus, uid: string) => {
    const [read] = await db.store.deliveries.findManyForSend([{ projectId, id }]);
    await db.store.deliveries.recordOutcomes([outcome(read!, status, uid)]);
  };
  const failingDelivery = async (projectId: ProjectId) => {
    const d = deliveryDoc(projectId, { event_id: newId(), endpoint_id: newId() });
    await db.store.deliveries.recordOutcomes([outcome(d, 'Retry', `${d._id}-1`, true)]);
    for (const n of [2, 3, 4]) await attemptOnce(projectId, d._id, 'Retry', `${d._id}-${n}`);
    return d;
  };

  it('appends failed retries without writing the document, and reads them folded in', async () => {
    const projectId = newProjectId();
    const d = await failingDelivery(projectId);
    const stored = await raw('event_deliveries').findOne({ _id: d._id });
    expect(stored).toMatchObject({ status: 'Retry', attempts_made: 1, retries_used: 1, rev: 0 });
    expect(
      await raw('delivery_retry_outcomes').countDocuments({ project_id: projectId, delivery_id: d._id }),
    ).toBe(3);

    const read = await db.store.deliveries.findById(projectId, d._id);
    expect(read).toMatchObject({
      status: 'Retry',
      attempts_made: 4,
      retries_used: 4,
      status_reason: `Retry (${d._id}-4)`,
    });
    expect(read!.attempts.map((a) => a.uid)).toEqual([1, 2, 3, 4].map((n) => `${d._id}-${n}`));
    expect(read!.next_attempt_at!.getTime()).toBeGreaterThan(Date.now());
    // every other read shows the same
    const [listed] = (await db.store.deliveries.page(projectId, { eventId: d.event_id }, { perPage: 10 }))
      .content;
    expect(listed).toEqual(read);
    expect(await db.store.deliveries.listByEvents(projectId, [d.event_id])).toEqual([read]);
    const [forSend] = await db.store.deliveries.findManyForSend([{ projectId, id: d._id }]);
    expect(forSend).toMatchObject({
      attempts_made: 4,
      retries_used: 4,
      next_attempt_at: read!.next_attempt_at,
    });
    expect(forSend!.attempts).toBeUndefined(); // a send never reads them
  });

  it('writes the final outcome into the document, the appended attempts still counted and shown', async () => {
    const projectId = newProjectId();
    const d = await failingDelivery(projectId);
    await attemptOnce(projectId, d._id, 'Success', `${d._id}-5`);
    const read = await db.store.deliveries.findById(projectId, d._id);
    expect(read).toMatchObject({
      status: 'Success',
      attempts_made: 5,
      retries_used: 4,
      next_attempt_at: null,
    });
    expect(read!.attempts.map((a) => a.http_status)).toEqual([500, 500, 500, 500, 200]);
    expect(await db.store.deliveries.countWithStatus(projectId, 'Retry', null, 10)).toBe(0);
    expect(await db.store.deliveries.countWithStatus(projectId, 'Success', null, 10)).toBe(1);
  });

  it('lets a resend made meanwhile stand over the retries appended before it', async () => {
    const projectId = newProjectId();
    const d = await failingDelivery(projectId);
    const [read] = await db.store.deliveries.findManyForSend([{ projectId, id: d._id }]);
    await db.store.deliveries.markForResend(projectId, [d._id], 'resent by an operator');
    // an attempt that was in flight when the resend came is recorded after it
    await db.store.deliveries.recordOutcomes([outcome(read!, 'Retry', `${d._id}-5`)]);
    const after = await db.store.deliveries.findById(projectId, d._id);
    expect(after).toMatchObject({
      status: 'Scheduled',
      next_attempt_at: null,
      status_reason: 'resent by an operator',
      attempts_made: 5,
    });
    // the resend's attempt fails: Retry again, from the document
    await attemptOnce(projectId, d._id, 'Retry', `${d._id}-6`);
    const again = await db.store.deliveries.findById(projectId, d._id);
    expect(again).toMatchObject({ status: 'Retry', attempts_made: 6, status_reason: `Retry (${d._id}-6)` });
    // and the next failure is appended again, and is where it stands
    await attemptOnce(projectId, d._id, 'Retry', `${d._id}-7`);
    expect(await db.store.deliveries.findById(projectId, d._id)).toMatchObject({
      attempts_made: 7,
      status_reason: `Retry (${d._id}-7)`,
    });
  });

  it("reads another project's delivery without this one's outcomes, and finds none by a wrong project", async () => {
    const [a, b] = [newProjectId(), newProjectId()];
    const da = await failingDelivery(a);
    const db_ = await failingDelivery(b);
    const [ra, rb, wrong] = await db.store.deliveries.findManyForSend([
      { projectId: a, id: da._id },
      { projectId: b, id: db_._id },
      { projectId: b, id: da._id },
    ]);
    expect([ra?.attempts_made, rb?.attempts_made, wrong]).toEqual([4, 4, null]);
    expect(await db.store.deliveries.findById(b, da._id)).toBeNull();
  });

  it("takes a delivery's standing from its appender when that still holds, else reads its outcomes", async () => {
    const projectId = newProjectId();
    const d = await failingDelivery(projectId);
    const ref = { projectId, id: d._id };
    // what the appending process would know (here told apart from the stored truth on purpose)
    const told = {
      rev: 0,
      attempts_made: 99,
      retries_used: 99,
      next_attempt_at: null,
      status_reason: 'told',
    };
    const [used] = await db.store.deliveries.findManyForSend([ref], () => told);
    expect(used).toMatchObject({ attempts_made: 99, status_reason: 'told' });
    // a write of the document since (a resend) makes it stale: the outcomes are read instead
    await db.store.deliveries.markForResend(projectId, [d._id], 'resent');
    const [read] = await db.store.deliveries.findManyForSend([ref], () => told);
    expect(read).toMatchObject({ status: 'Scheduled', attempts_made: 4, status_reason: 'resent' });
  });

  it('reads more deliveries than one query takes, of two projects, each folded and in the order asked', async () => {
    const [p1, p2] = [newProjectId(), newProjectId()];
    const retried = await Promise.all(Array.from({ length: 30 }, (_, i) => failingDelivery(i % 2 ? p1 : p2)));
    const fresh = Array.from({ length: 30 }, (_, i) =>
      deliveryDoc(i % 2 ? p2 : p1, { event_id: newId(), endpoint_id: newId() }),
    );
    await db.store.deliveries.recordOutcomes(fresh.map((d) => outcome(d, 'Retry', `${d._id}-1`, true)));
    const asked = [...retried, ...fresh].flatMap((d, i) => [
      { projectId: d.project_id, id: d._id },
      ...(i % 10 === 0 ? [{ projectId: d.project_id === p1 ? p2 : p1, id: d._id }] : []), // not there
    ]);
    expect(asked.length).toBeGreaterThan(2 * IDS_PER_QUERY);

    const read = await db.store.deliveries.findManyForSend(asked);
    const expected = asked.map((ref) => {
      const d = [...retried, ...fresh].find((x) => x._id === ref.id && x.project_id === ref.projectId);
      if (!d) return null;
      return retried.includes(d) ? { _id: d._id, attempts_made: 4 } : { _id: d._id, attempts_made: 1 };
    });
    expect(read.map((d) => d && { _id: d._id, attempts_made: d.attempts_made })).toEqual(expected);
  });

  it('goes with its delivery at retention and when the project is purged', async () => {
    const [kept, purged] = [newProjectId(), newProjectId()];
    await failingDelivery(kept);
    await failingDelivery(purged);
    const outcomesOf = (p: ProjectId) => raw('delivery_retry_outcomes').countDocuments({ project_id: p });
    expect(await outcomesOf(kept)).toBe(3);
    while ((await db.store.deleteProjectHistoryBefore(kept, new Date(Date.now() + 3_600_000), 100)) > 0);
    expect(await outcomesOf(kept)).toBe(0);
    while ((await db.store.purgeProjectData(purged, 100)) > 0);
    expect(await outcomesOf(purged)).toBe(0);
  });
});
