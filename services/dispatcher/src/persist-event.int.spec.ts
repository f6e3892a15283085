import { newId, newProjectId, type ProjectId } from '@hookrail/domain';
import type { EventMessage } from '@hookrail/bus';
import { eventDocument } from '@hookrail/routing';
import type { RunningService } from '@hookrail/runtime';
import type { Store } from '@hookrail/store';
import {
  connectTestStore,
  makeProject,
  startTestService,
  testBus,
  testConfig,
  uniquePrefix,
  waitFor,
} from '@hookrail/testkit';
import { definition } from './service';

// Events of projects that exist: those of a deleted (or never created) project are dropped.
describe('dispatcher router persists events from Kafka', () => {
  const prefix = uniquePrefix('persist');
  const bus = testBus(prefix);
  let store: Store;
  let dispatcher: RunningService;

  beforeAll(async () => {
    store = await connectTestStore();
    dispatcher = await startTestService(
      definition(testConfig('dispatcher', { HOOKRAIL_KAFKA_TOPIC_PREFIX: prefix })),
    );
  });
  afterAll(async () => {
    await dispatcher?.stop();
    await bus.close();
    await store?.close();
  });

  const message = (projectId: ProjectId): EventMessage => ({
    event_id: newId(),
    project_id: projectId,
    source_id: newId(),
    event_type: 'invoice.paid',
    target: { mode: 'source' },
    data: { amount: 42, 'dotted.key': true, $weird: 1 },
    raw: JSON.stringify({ amount: 42, 'dotted.key': true, $weird: 1 }),
    headers: { 'content-type': 'application/json', 'x-a.b': '1' },
    accepted_at: new Date().toISOString(),
  });

  it('stores an event produced on the events topic in the real MongoDB-protocol server', async () => {
    const projectId = await makeProject(store);
    const m = message(projectId);
    const publisher = await bus.connectPublisher();
    await publisher.publish('events', [m]);

    const stored = await waitFor('event stored', () => store.events.findById(projectId, m.event_id));
    expect(stored.event_type).toBe('invoice.paid');
    expect(JSON.parse(stored.raw)).toEqual(m.data);
    expect(JSON.parse(stored.headers_json)).toEqual(m.headers);
    expect(stored.acknowledged_at?.toISOString()).toBe(m.accepted_at);
  });

  it('is idempotent: a redelivered message leaves one unchanged document', async () => {
    const projectId = await makeProject(store);
    const m = message(projectId);
    const publisher = await bus.connectPublisher();
    await publisher.publish('events', [m, m]);
    const first = await waitFor('event stored', () => store.events.findById(projectId, m.event_id));
    // The router's write, run again on the same message against the real store.
    await store.events.insertManyIfAbsent([
      eventDocument({ ...m, event_type: 'changed' }, { status: 'Failure', reason: 'again', endpoints: [] }),
    ]);
    expect(await store.events.count(projectId)).toBe(1);
    expect(await store.events.findById(projectId, m.event_id)).toEqual(first);
  });

  it('keeps the events of one project invisible to another', async () => {
    const projectId = await makeProject(store);
    const m = message(projectId);
    await (await bus.connectPublisher()).publish('events', [m]);
    await waitFor('event stored', () => store.events.findById(projectId, m.event_id));
    expect(await store.events.findById(newProjectId(), m.event_id)).toBeNull();
  });
});
