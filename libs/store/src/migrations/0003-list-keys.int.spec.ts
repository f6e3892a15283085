import type { Connection, mongo } from 'mongoose';
import { asProjectId, newId } from '@hookrail/domain';
import { connectMongo } from '../connection';
import { Store } from '../store';
import { baselineIndexes, BASELINE_INDEXES } from './0001-baseline-indexes';
import { auditLog } from './0002-audit-log';
import { MIGRATIONS } from './catalog';
import { MigrationRunner } from './runner';

// The upgrade from the release before list keys: a database its services wrote (the baseline's
// indexes, events and deliveries without keys, as that release's store wrote them) is migrated,
// and every list of the new store finds what it should.
const opened: Connection[] = [];
let counter = 0;
async function freshDb(): Promise<{ url: string; db: mongo.Db }> {
  const base = process.env.HOOKRAIL_TEST_MONGODB_URL;
  if (!base) throw new Error('HOOKRAIL_TEST_MONGODB_URL is not set (jest.integration-setup.js sets it)');
  const url = new URL(base);
  url.pathname = `${url.pathname}-k${++counter}`;
  const conn = await connectMongo(url.toString(), { appName: 'list-keys-test' });
  opened.push(conn);
  if (!conn.db) throw new Error('not connected');
  return { url: url.toString(), db: conn.db };
}
afterAll(async () => {
  for (const conn of opened) await conn.dropDatabase().catch(() => undefined);
  for (const conn of opened) await conn.close();
});

const project = asProjectId(newId());
const [sourceA, sourceB, ep1, ep2] = [newId(), newId(), newId(), newId()];

/** An event as the previous release stored it (no keys). */
function oldEvent(i: number, over: Record<string, unknown> = {}) {
  const now = new Date();
  return {
    _id: newId(),
    project_id: project,
    source_id: i % 2 ? sourceA : sourceB,
    event_type: 'order.created',
    idempotency_key: i % 5 === 0 ? `key-${i}` : null,
    status: 'Success',
    raw: JSON.stringify({ i }),
    endpoints: i % 3 === 0 ? [ep1, ep2] : [ep1],
    delivery_count: 1,
    created_at: now,
    updated_at: now,
    deleted_at: null,
    ...over,
  };
}

/** A delivery as the previous release stored it. */
function oldDelivery(eventId: string, endpointId: string, status: string) {
  const now = new Date();
  return {
    _id: newId(),
    project_id: project,
    event_id: eventId,
    endpoint_id: endpointId,
    subscription_id: 'sub',
    status,
    next_attempt_at: status === 'Scheduled' ? now : null,
    attempts: [],
    created_at: now,
    updated_at: now,
    deleted_at: null,
  };
}

const STATUSES = ['Success', 'Failure', 'Retry', 'Scheduled'];

async function previousRelease(db: mongo.Db) {
  await new MigrationRunner(db, { migrations: [baselineIndexes, auditLog] }).up();
  const events = Array.from({ length: 40 }, (_, i) => oldEvent(i));
  const deliveries = events.flatMap((e, i) =>
    e.endpoints.map((ep) => oldDelivery(e._id, ep, STATUSES[i % STATUSES.length])),
  );
  await db.collection('events').insertMany(events as never[]);
  await db.collection('event_deliveries').insertMany(deliveries as never[]);
  return { events, deliveries };
}

const ids = (docs: { _id: string }[]) => docs.map((d) => d._id).sort();
const page = { perPage: 100, direction: 'next' } as const;

describe('migration 3, list keys', () => {
  it('gives stored events and deliveries their keys, so every list of the new store finds them', async () => {
    const { url, db } = await freshDb();
    const { events, deliveries } = await previousRelease(db);
    const store = await Store.connect(url, 'list-keys-test');
    try {
      const { applied } = await store.migrations().up();
      // every migration after the two the previous release had, list keys first
      const keys = applied.map((a) => a.key);
      expect(keys[0]).toBe('0003-list-keys');
      expect(keys).toHaveLength(MIGRATIONS.length - 2);
      const expectEvents = async (filter: object, want: typeof events) =>
        expect(ids((await store.events.page(project, filter, page)).content)).toEqual(ids(want));
      await expectEvents({}, events);
      await expectEvents(
        { sourceId: sourceA },
        events.filter((e) => e.source_id === sourceA),
      );
      await expectEvents(
        { endpointIds: [ep2] },
        events.filter((e) => e.endpoints.includes(ep2)),
      );
      await expectEvents(
        { idempotencyKey: 'key-5' },
        events.filter((e) => e.idempotency_key === 'key-5'),
      );
      await expectEvents(
        { sourceId: sourceB, endpointIds: [ep2] },
        events.filter((e) => e.source_id === sourceB && e.endpoints.includes(ep2)),
      );

      const expectDeliveries = async (filter: object, want: typeof deliveries) =>
        expect(ids((await store.deliveries.page(project, filter, page)).content)).toEqual(ids(want));
      await expectDeliveries({}, deliveries);
      await expectDeliveries(
        { eventId: events[3]._id },
        deliveries.filter((d) => d.event_id === events[3]._id),
      );
      await expectDeliveries(
        { endpointIds: [ep2] },
        deliveries.filter((d) => d.endpoint_id === ep2),
      );
      await expectDeliveries(
        { statuses: ['Failure', 'Retry'] },
        deliveries.filter((d) => ['Failure', 'Retry'].includes(d.status)),
      );
      await expectDeliveries(
        { endpointIds: [ep1], statuses: ['Retry'] },
        deliveries.filter((d) => d.endpoint_id === ep1 && d.status === 'Retry'),
      );
      expect(await store.deliveries.countWithStatus(project, 'Failure', null, 1000)).toBe(
        deliveries.filter((d) => d.status === 'Failure').length,
      );
      expect(ids(await store.deliveries.listHeld(project, ep1, 100))).toEqual(
        ids(deliveries.filter((d) => d.endpoint_id === ep1 && d.status === 'Scheduled')),
      );
      expect((await store.events.findById(project, events[0]._id))?._id).toBe(events[0]._id);
    } finally {
      await store.close();
    }
    for (const name of ['events', 'event_deliveries']) {
      const keys = (await db.collection(name).listIndexes().toArray()).map((ix) => ix.key);
      expect(keys).toEqual([{ _id: 1 }, { project_id: 1, keys: 1, _id: -1 }]);
    }
  });

  it('after the rollout, keys what pods of the previous release wrote meanwhile, once', async () => {
    const { url, db } = await freshDb();
    const { deliveries } = await previousRelease(db);
    const store = await Store.connect(url, 'list-keys-test');
    try {
      await store.migrations().up();
      // An old pod still serving: a new event without keys, a status changed without its keys,
      // and one that restarted created its old indexes again.
      const straggler = oldEvent(1);
      await db.collection('events').insertOne(straggler as never);
      const retried = deliveries.find((d) => d.status === 'Retry')!;
      await db
        .collection('event_deliveries')
        .updateOne({ _id: retried._id as never }, { $set: { status: 'Success' } });
      for (const [key] of BASELINE_INDEXES.event_deliveries)
        await db.collection('event_deliveries').createIndex(key);

      expect(await store.migrations().afterRollout()).toEqual(['0003-list-keys']);
      const bySource = await store.events.page(project, { sourceId: sourceA }, page);
      expect(bySource.content.map((e) => e._id)).toContain(straggler._id);
      const succeeded = await store.deliveries.page(project, { statuses: ['Success'] }, page);
      expect(succeeded.content.map((d) => d._id)).toContain(retried._id);
      const stillRetry = await store.deliveries.page(project, { statuses: ['Retry'] }, page);
      expect(stillRetry.content.map((d) => d._id)).not.toContain(retried._id);
      expect(await db.collection('event_deliveries').listIndexes().toArray()).toHaveLength(2);
      expect(await store.migrations().afterRollout()).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
