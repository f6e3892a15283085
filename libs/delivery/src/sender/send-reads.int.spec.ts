import { newId, newProjectId } from '@hookrail/domain';
import type { Store } from '@hookrail/store';
import { connectTestStore, makeDelivery, makeEvent } from '@hookrail/testkit';
import { coalescedSendReads } from './send-reads';

describe('coalescedSendReads', () => {
  let store: Store;
  beforeAll(async () => {
    store = await connectTestStore();
  });
  afterAll(() => store.close());

  it('reads what many sends ask for at once in one round trip per kind, each project its own, and events once', async () => {
    const [p1, p2] = [newProjectId(), newProjectId()];
    const e1 = await makeEvent(store, p1, { raw: '{"n":1}' });
    const e2 = await makeEvent(store, p2, { raw: '{"n":2}' });
    const d1 = await makeDelivery(store, p1, { event_id: e1._id, endpoint_id: newId() });
    const d2 = await makeDelivery(store, p2, { event_id: e2._id, endpoint_id: newId() });
    const deliveryTrips = jest.spyOn(store.deliveries, 'findManyForSend');
    const eventTrips = jest.spyOn(store.events, 'findManyForSend');
    const reads = coalescedSendReads(store);

    const [got1, got2, crossed, missing, ev1, ev2, evCrossed] = await Promise.all([
      reads.delivery(p1, d1._id),
      reads.delivery(p2, d2._id),
      reads.delivery(p2, d1._id), // another project's id: not found
      reads.delivery(p1, newId()),
      reads.event(p1, e1._id),
      reads.event(p2, e2._id),
      reads.event(p1, e2._id),
    ]);

    expect([got1?._id, got2?._id, crossed, missing]).toEqual([d1._id, d2._id, null, null]);
    expect([ev1?.raw, ev2?.raw, evCrossed]).toEqual(['{"n":1}', '{"n":2}', null]);
    expect([deliveryTrips.mock.calls.length, eventTrips.mock.calls.length]).toEqual([1, 1]);

    // Events never change: one read lately is not read again (a delivery's next retry); deliveries are.
    const [again, event1] = await Promise.all([reads.delivery(p1, d1._id), reads.event(p1, e1._id)]);
    expect([again?._id, event1?.raw]).toEqual([d1._id, '{"n":1}']);
    expect([deliveryTrips.mock.calls.length, eventTrips.mock.calls.length]).toEqual([2, 1]);
  });
});
