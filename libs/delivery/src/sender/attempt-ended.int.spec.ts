import type { DeliveryMessage } from '@hookrail/bus';
import { newId } from '@hookrail/domain';
import type { Store } from '@hookrail/store';
import {
  makeEndpoint,
  makeProject,
  startReceiver,
  testBus,
  uniquePrefix,
  type Receiver,
} from '@hookrail/testkit';
import type { SendDelivery } from './send-delivery';
import { senderOnTestStore, storedDelivery } from './testing/sender-on-test-store';

/**
 * The sender says when an attempt's request has its answer, before the outcome is recorded (a
 * first send's local slot is given back then: createFirstSends); on the real store and a real
 * receiver.
 */
describe('sender: the end of an attempt, before its record', () => {
  let store: Store;
  let receiver: Receiver;
  let send: SendDelivery;
  let close: () => Promise<void>;

  beforeAll(async () => {
    receiver = await startReceiver();
    ({ store, send, close } = await senderOnTestStore(testBus(uniquePrefix('attempt-ended'))));
  });
  afterAll(async () => {
    await receiver?.close();
    await close?.();
  });

  async function scheduled(endpointUrl: string | null): Promise<DeliveryMessage> {
    const projectId = await makeProject(store);
    const endpointId = endpointUrl
      ? (await makeEndpoint(store, projectId, { url: endpointUrl }))._id
      : newId();
    const d = await storedDelivery(
      store,
      projectId,
      endpointId,
      { status: 'Scheduled' },
      { source_id: newId() },
    );
    return d.message('initial');
  }

  it('is told once the receiver answered, while the attempt is not yet recorded', async () => {
    const m = await scheduled(`${receiver.url}/hook`);
    const seen: { requests: number; attemptsStored: Promise<number | undefined> }[] = [];
    const before = receiver.count();
    await send(m, () =>
      seen.push({
        requests: receiver.count() - before,
        attemptsStored: store.deliveries
          .findById(m.project_id, m.delivery_id)
          .then((d) => d?.attempts.length),
      }),
    );
    expect(seen).toHaveLength(1);
    expect(seen[0].requests).toBe(1);
    expect(await seen[0].attemptsStored).toBe(0);
    const d = await store.deliveries.findById(m.project_id, m.delivery_id);
    expect(d?.status).toBe('Success');
    expect(d?.attempts).toHaveLength(1);
  });

  it('is not told when no attempt is made (the endpoint is gone)', async () => {
    const m = await scheduled(null);
    let told = 0;
    await send(m, () => told++);
    expect(told).toBe(0);
    const d = await store.deliveries.findById(m.project_id, m.delivery_id);
    expect(d).toMatchObject({ status: 'Discarded', status_reason: 'endpoint deleted' });
  });
});
