import type { Bus, DeliveryMessage, Publisher, RetryMessage } from '@hookrail/bus';
import { newId, type ProjectId } from '@hookrail/domain';
import type { Store } from '@hookrail/store';
import {
  connectTestStore,
  makeDelivery,
  makeEndpoint,
  makeEvent,
  makeProject,
  testBus,
  uniquePrefix,
  waitFor,
} from '@hookrail/testkit';
import { batchRetry } from './batch-retry.usecase';
import { releaseHeldDeliveries } from './release-held.usecase';
import { replayEvent } from './replay.usecase';
import { resendDeliveries } from './resend.usecase';

jest.setTimeout(60_000);

/** Manual operations on the real database and Kafka: what they change, what they publish. */
describe('manual operations', () => {
  let store: Store;
  let bus: Bus;
  let publisher: Publisher;
  const sent: DeliveryMessage[] = [];
  const retries: RetryMessage[] = [];
  let project: ProjectId;
  let other: ProjectId;
  let endpointId: string;

  beforeAll(async () => {
    store = await connectTestStore();
    bus = testBus(uniquePrefix('operations'));
    await bus.ensureTopics();
    publisher = await bus.connectPublisher();
    await bus.consume('deliveries-seen', { topic: 'deliveries', handle: async (m) => void sent.push(m) });
    await bus.consume('retries-seen', { topic: 'retries', handle: async (m) => void retries.push(m) });
    project = await makeProject(store);
    other = await makeProject(store);
    endpointId = (await makeEndpoint(store, project, { url: 'http://127.0.0.1:9/hooks' }))._id;
  });

  afterAll(async () => {
    await bus.close();
    await store.close();
  });

  const deps = () => ({ store, publisher });

  async function delivery(
    status: 'Failure' | 'Discarded' | 'Success' | 'Retry' | 'Scheduled',
    projectId = project,
  ) {
    const event = await makeEvent(store, projectId);
    return makeDelivery(store, projectId, { event_id: event._id, endpoint_id: endpointId, status });
  }

  const sentFor = (id: string) => sent.filter((m) => m.delivery_id === id);

  it('resend takes Failure and Discarded, refuses Success unless forced, and never sees another project', async () => {
    const failed = await delivery('Failure');
    const discarded = await delivery('Discarded');
    const succeeded = await delivery('Success');
    const foreign = await delivery('Failure', other);
    const unknown = newId();

    const out = await resendDeliveries(
      deps(),
      project,
      [failed._id, discarded._id, succeeded._id, foreign._id, unknown],
      'resend',
    );
    expect(out.get(failed._id)?.kind).toBe('resent');
    expect(out.get(discarded._id)?.kind).toBe('resent');
    expect(out.get(succeeded._id)).toEqual({ kind: 'not_resendable', status: 'Success' });
    expect(out.get(foreign._id)).toEqual({ kind: 'not_found' });
    expect(out.get(unknown)).toEqual({ kind: 'not_found' });

    const [stored] = await store.deliveries.findByIds(project, [failed._id]);
    expect(stored.status).toBe('Scheduled');
    await waitFor(
      'resend messages',
      () => sentFor(failed._id).length > 0 && sentFor(discarded._id).length > 0,
      { timeoutMs: 15_000 },
    );
    expect(sentFor(failed._id)[0]).toMatchObject({
      project_id: project,
      endpoint_id: endpointId,
      reason: 'resend',
    });

    const forced = await resendDeliveries(deps(), project, [succeeded._id], 'force');
    expect(forced.get(succeeded._id)?.kind).toBe('resent');
    await waitFor('forced resend message', () => sentFor(succeeded._id).length > 0, { timeoutMs: 15_000 });
    expect(sentFor(foreign._id)).toEqual([]);
    expect((await store.deliveries.findByIds(other, [foreign._id]))[0].status).toBe('Failure');
  });

  it('batch retry resends only failed deliveries matching the filter', async () => {
    const event = await makeEvent(store, project);
    const otherEndpoint = (await makeEndpoint(store, project, { url: 'http://127.0.0.1:9/other' }))._id;
    const hit = await makeDelivery(store, project, {
      event_id: event._id,
      endpoint_id: otherEndpoint,
      status: 'Failure',
    });
    const retrying = await makeDelivery(store, project, {
      event_id: event._id,
      endpoint_id: otherEndpoint,
      status: 'Retry',
    });

    const result = await batchRetry(deps(), project, { endpoint_id: otherEndpoint });
    expect(result).toEqual({ matched: 1, resent: 1, more: false });
    await waitFor('batch retry message', () => sentFor(hit._id).length > 0, { timeoutMs: 15_000 });
    expect(sentFor(retrying._id)).toEqual([]);
  });

  it('replay makes a new delivery per subscription of the event and leaves the old ones', async () => {
    const old = await delivery('Success');
    const out = await replayEvent(deps(), project, old.event_id);
    expect(out.kind).toBe('replayed');
    if (out.kind !== 'replayed') return;
    expect(out.deliveries).toHaveLength(1);
    const copy = out.deliveries[0];
    expect(copy._id).not.toBe(old._id);
    expect(copy).toMatchObject({ status: 'Scheduled', subscription_id: old.subscription_id, attempts: [] });
    await waitFor('replay message', () => sentFor(copy._id).length > 0, { timeoutMs: 15_000 });
    expect(sentFor(copy._id)[0].reason).toBe('initial');
    expect((await store.deliveries.findByIds(project, [old._id]))[0].status).toBe('Success');

    expect(await replayEvent(deps(), project, newId())).toEqual({ kind: 'not_found' });
    expect((await replayEvent(deps(), other, old.event_id)).kind).toBe('not_found');
    const lonely = await makeEvent(store, project);
    expect(await replayEvent(deps(), project, lonely._id)).toEqual({ kind: 'nothing_to_replay' });
  });

  it('releasing an endpoint reschedules its held deliveries, not those waiting for a policy retry', async () => {
    const endpoint = (await makeEndpoint(store, project, { url: 'http://127.0.0.1:9/held' }))._id;
    const event = await makeEvent(store, project);
    const at = new Date(Date.now() + 3_600_000);
    const held = await makeDelivery(store, project, {
      event_id: event._id,
      endpoint_id: endpoint,
      status: 'Scheduled',
      next_attempt_at: at,
    });
    const waiting = await makeDelivery(store, project, {
      event_id: event._id,
      endpoint_id: endpoint,
      status: 'Retry',
      next_attempt_at: at,
    });

    const now = Date.now();
    expect(await releaseHeldDeliveries(deps(), project, endpoint, now)).toBe(1);
    await waitFor('release message', () => retries.some((r) => r.delivery_id === held._id), {
      timeoutMs: 15_000,
    });
    const msg = retries.find((r) => r.delivery_id === held._id);
    expect(msg).toMatchObject({ endpoint_id: endpoint, kind: 'delivery', event_id: event._id });
    expect(Date.parse(msg!.due_at)).toBeLessThan(at.getTime());
    expect(retries.some((r) => r.delivery_id === waiting._id)).toBe(false);
  });
});
