import {
  makeEndpoint,
  makeSubscription,
  startReceiver,
  startTestService,
  testConfig,
  waitFor,
  type Receiver,
} from '@hookrail/testkit';
import { definition as dispatcherDefinition } from '../../dispatcher/src/service';
import { GatewayHarness } from '../../api-gateway/src/testing/gateway-harness';
import { definition } from './service';
import { BROKER_ENV } from './testing/broker-stack';
import { USER_MONGODB_URL, userDatabase } from './testing/user-database';
import { userPostgres, type UserPostgres } from './testing/user-postgres';

jest.setTimeout(120_000);

/** The fields of either database's change payload (docs/sources.md) the tests read. */
interface Change {
  database: string;
  operation: string;
  document_key?: { _id: string };
  key?: { id: string };
}

/**
 * Where a new db_change_stream source starts: at the API's 201, not when the source-consumer
 * first opens its stream. Each source is created through the gateway while no source-consumer
 * runs, a change is committed, and only then does a source-consumer start: the change arrives,
 * once, before the one committed after it. A restart from now starts at its PUT's answer the same
 * way. While a consumer reads, it records the lag in the source's health.
 */
describe('db_change_stream source: changes committed before the source-consumer opens the stream', () => {
  const h = new GatewayHarness();
  let receiver: Receiver;
  let dispatcher: { stop(): Promise<void> } | undefined;
  const cleanups: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    await h.start({ HOOKRAIL_ALLOW_PRIVATE_BROKERS: 'true' });
    receiver = await startReceiver();
    const env = { HOOKRAIL_KAFKA_TOPIC_PREFIX: h.prefix };
    dispatcher = await startTestService(dispatcherDefinition(testConfig('dispatcher', env)));
  });
  afterAll(async () => {
    await dispatcher?.stop();
    await receiver?.close();
    await h.stop();
    await Promise.all(cleanups.map((c) => c()));
  });

  /** A project whose one endpoint (the receiver) gets the source's events, and the source, via the API. */
  const createThroughApi = async (
    cdc: Record<string, unknown>,
  ): Promise<{ projectId: string; id: string; key: string }> => {
    const p = await h.createProject('incoming');
    const res = await h.call('POST', `/v1/projects/${p.id}/sources`, {
      key: p.key,
      body: { name: 'cdc', type: 'db_change_stream', db_change_stream: cdc },
    });
    expect(res.status).toBe(201);
    const id = res.body.data.uid as string;
    const ep = await makeEndpoint(h.store, p.id, { name: 'sink', url: `${receiver.url}/hook` });
    await makeSubscription(h.store, p.id, {
      name: 'cdc-sub',
      source_id: id,
      endpoint_id: ep._id,
      ordering: { mode: 'endpoint', key: null, unblock_on: [] },
    });
    return { projectId: p.id, id, key: p.key };
  };
  /** A source-consumer for one test: stopped at its end, so the next source is created with none running. */
  const withConsumer = async (run: (consumerUrl: string) => Promise<void>) => {
    const consumer = await startTestService(
      definition(testConfig('source-consumer', { HOOKRAIL_KAFKA_TOPIC_PREFIX: h.prefix, ...BROKER_ENV })),
    );
    try {
      await run(consumer.url);
    } finally {
      await consumer.stop();
    }
  };
  /** The lag the consumer records in the source's health while it reads (every 5 s). */
  const recordedLag = (src: { projectId: string; id: string }) =>
    waitFor('the lag recorded', async () => {
      const health = await h.store.sourceHealth.find(src.projectId as never, src.id);
      return typeof health?.lag_seconds === 'number' ? health : undefined;
    });
  const waitConsuming = (src: { projectId: string; id: string }) =>
    waitFor('the stream consuming', async () => {
      const health = await h.store.sourceHealth.find(src.projectId as never, src.id);
      return health?.state === 'consuming' ? true : undefined;
    });
  /** The ids of the delivered changes whose body passes `mine`, in arrival order. */
  const deliveredIds = (mine: (b: Change) => unknown) =>
    receiver.requests.map((r) => JSON.parse(r.body) as Change).filter(mine);
  const waitIds = async (mine: (b: Change) => unknown, count: number) => {
    await waitFor(`${count} changes`, () => (deliveredIds(mine).length >= count ? true : undefined), {
      timeoutMs: 45_000,
      intervalMs: 100,
    });
    await new Promise((r) => setTimeout(r, 1500)); // a second copy of any would arrive by now
    return deliveredIds(mine);
  };
  const events = (projectId: string, sourceId: string) =>
    waitFor('2 events recorded', async () => {
      const all = await h.store.events.list(projectId as never, { sourceId }, 100);
      return all.length >= 2 ? all : undefined;
    });

  it('mongodb: the change committed right after the 201 is delivered once the consumer starts', async () => {
    const user = await userDatabase(['orders']);
    cleanups.push(() => user.drop());
    const src = await createThroughApi({
      type: 'mongodb',
      connection_string: USER_MONGODB_URL,
      database: user.name,
      collections: ['orders'],
    });
    const orders = user.db.collection<{ _id: string }>('orders');
    await orders.insertOne({ _id: 'early' });
    await withConsumer(async () => {
      await waitConsuming(src);
      await orders.insertOne({ _id: 'late' });
      const got = await waitIds((b) => b.database === user.name, 2);
      expect(got.map((b) => `${b.document_key?._id}:${b.operation}`)).toEqual([
        'early:insert',
        'late:insert',
      ]);
      // Caught up: 0 s and 0 changes behind (counted in the oplog); WAL bytes are Postgres's.
      expect(await recordedLag(src)).toMatchObject({ lag_seconds: 0, behind_bytes: null, behind_changes: 0 });
    });
    expect((await events(src.projectId, src.id)).filter((e) => e.is_duplicate_event)).toHaveLength(0);
  });

  it('mongodb: a restart from now starts where its PUT was answered: the change before it skipped, the one right after delivered', async () => {
    const user = await userDatabase(['orders']);
    cleanups.push(() => user.drop());
    const cdc = { type: 'mongodb', connection_string: USER_MONGODB_URL, database: user.name };
    const src = await createThroughApi(cdc);
    const orders = user.db.collection<{ _id: string }>('orders');
    const mine = (b: Change) => b.database === user.name;
    await withConsumer(async () => {
      await waitConsuming(src);
      await orders.insertOne({ _id: 'first' });
      await waitIds(mine, 1);
    });
    await orders.insertOne({ _id: 'skipped' }); // no consumer: after the stored point
    const put = await h.call('PUT', `/v1/projects/${src.projectId}/sources/${src.id}`, {
      key: src.key,
      body: { db_change_stream: { ...cdc, restart_from_now: true } },
    });
    expect(put.status).toBe(202);
    await orders.insertOne({ _id: 'after' });
    await withConsumer(async () => {
      const got = await waitIds(mine, 2);
      expect(got.map((b) => b.document_key?._id)).toEqual(['first', 'after']);
    });
  });

  it('postgres: the row inserted right after the 201 is delivered once the consumer starts (the slot keeps it)', async () => {
    const user: UserPostgres = await userPostgres('CREATE TABLE orders (id text PRIMARY KEY);');
    cleanups.push(() => user.drop());
    const src = await createThroughApi(user.sourceSettings({ tables: ['orders'] }));
    await user.sql("INSERT INTO orders VALUES ('early')");
    await withConsumer(async (consumerUrl) => {
      await waitConsuming(src);
      await user.sql("INSERT INTO orders VALUES ('late')");
      const got = await waitIds((b) => b.database === user.name, 2);
      expect(got.map((b) => `${b.key?.id}:${b.operation}`)).toEqual(['early:insert', 'late:insert']);
      // The slot's WAL bytes behind, read from pg_replication_slots, and the metric beside it.
      const lag = await recordedLag(src);
      expect(lag.behind_bytes).toEqual(expect.any(Number));
      expect(lag.behind_bytes).toBeGreaterThanOrEqual(0);
      const metrics = await (await fetch(`${consumerUrl}/metrics`)).text();
      expect(metrics).toMatch(
        new RegExp(`hookrail_change_stream_behind_bytes\\{source_id="${src.id}"[^}]*\\} \\d+`),
      );
    });
    expect((await events(src.projectId, src.id)).filter((e) => e.is_duplicate_event)).toHaveLength(0);
  });
});
