import { newId, type ProjectId } from '@hookrail/domain';
import type { Store } from '@hookrail/store';
import {
  connectTestStore,
  deliveryDoc,
  eventDoc,
  makeProject,
  metaEventDoc,
  makeEndpoint,
} from '@hookrail/testkit';
import { expireProjectHistory } from './apply-retention.usecase';

/** The retention sweep on the real database server, with a one-hour retention period. */
describe('retention', () => {
  let store: Store;
  beforeAll(async () => {
    store = await connectTestStore();
  });
  afterAll(() => store?.close());

  async function history(projectId: ProjectId, at: Date, n: number) {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const event = await store.events.insert(
        projectId,
        eventDoc(projectId, { created_at: at, updated_at: at }),
      );
      await store.deliveries.insert(
        projectId,
        deliveryDoc(projectId, {
          event_id: event._id,
          endpoint_id: 'e',
          subscription_id: newId(),
          created_at: at,
        }),
      );
      await store.metaEvents.insert(projectId, metaEventDoc(projectId, { created_at: at, updated_at: at }));
      ids.push(event._id);
    }
    return ids;
  }
  const counts = async (projectId: ProjectId) => {
    const c = await store.countProjectData(projectId);
    return { events: c.events, deliveries: c.event_deliveries, meta: c.meta_events, endpoints: c.endpoints };
  };

  it("deletes events, deliveries (with attempts) and meta events older than the project's period, in batches, and keeps the rest", async () => {
    const now = Date.now();
    const short = await makeProject(store, { retention_seconds: 3600 });
    const long = await makeProject(store); // default: 30 days
    for (const p of [short, long]) await makeEndpoint(store, p, { url: 'https://example.com' });
    await history(short, new Date(now - 2 * 3600_000), 5);
    const recent = await history(short, new Date(now - 10_000), 2);
    await history(long, new Date(now - 2 * 3600_000), 3);

    expect(
      await expireProjectHistory(store, (await store.projects.findById(short))!, now, { batch: 2 }),
    ).toBe(15);
    expect(await counts(short)).toEqual({ events: 2, deliveries: 2, meta: 2, endpoints: 1 });
    expect((await store.events.list(short, {}, 10)).map((e) => e._id).sort()).toEqual([...recent].sort());
    expect(await expireProjectHistory(store, (await store.projects.findById(long))!, now)).toBe(0);
    expect(await counts(long)).toEqual({ events: 3, deliveries: 3, meta: 3, endpoints: 1 });

    // An hour later the recent ones have expired too; configuration is never touched.
    expect(await expireProjectHistory(store, (await store.projects.findById(short))!, now + 3600_000)).toBe(
      6,
    );
    expect(await counts(short)).toEqual({ events: 0, deliveries: 0, meta: 0, endpoints: 1 });
  });
  it('deletes per-minute delivery counters older than two days and keeps the recent ones', async () => {
    const now = Date.now();
    const project = await makeProject(store); // 30 days of history, two of counters
    const minute = (msAgo: number) => Math.floor((now - msAgo) / 60_000) * 60_000;
    const row = (msAgo: number) => ({
      projectId: project,
      endpointId: '*',
      minute: minute(msAgo),
      outcomes: { Success: 1 },
      latency: {},
    });
    await store.deliveryStats.increment([row(3 * 86_400_000), row(49 * 3600_000), row(3600_000)]);
    await expireProjectHistory(store, (await store.projects.findById(project))!, now, { batch: 1 });
    const left = await store.deliveryStats.series(project, '*', new Date(0), new Date(now + 60_000));
    expect(left.map((d) => d.minute.getTime())).toEqual([minute(3600_000)]);
  });
});
