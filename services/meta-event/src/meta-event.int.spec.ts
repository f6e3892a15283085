import { createHmac } from 'node:crypto';
import type { MetaMessage, RetryMessage } from '@hookrail/bus';
import { HttpClient } from '@hookrail/outbound';
import { newId, SecretBox, newProjectId, type ProjectId } from '@hookrail/domain';
import type { RunningService } from '@hookrail/runtime';
import { DEFAULT_PROJECT_CONFIG, type ProjectConfig, type Store } from '@hookrail/store';
import { createLogger, Metrics } from '@hookrail/telemetry';
import {
  connectTestStore,
  startReceiver,
  startTestService,
  testBus,
  testConfig,
  uniquePrefix,
  waitFor,
  type Receiver,
} from '@hookrail/testkit';
import { handleMetaMessage } from '@hookrail/notify';
import { definition } from './service';

const SECRET = 'meta-secret-0123456789';

describe('meta-event service on real Kafka, MongoDB-protocol server and HTTP receivers', () => {
  const prefix = uniquePrefix('meta');
  const bus = testBus(prefix);
  const retries: RetryMessage[] = [];
  const receivers: Receiver[] = [];
  let store: Store;
  let service: RunningService;

  beforeAll(async () => {
    store = await connectTestStore();
    service = await startTestService(
      definition(testConfig('meta-event', { HOOKRAIL_KAFKA_TOPIC_PREFIX: prefix })),
    );
    await bus.consume('test-retries', {
      topic: 'retries',
      handle: async (m) => void retries.push(m),
    });
  });
  afterAll(async () => {
    await service?.stop();
    await bus.close();
    await store?.close();
    await Promise.all(receivers.map((r) => r.close()));
  });

  async function receiver(opts: Parameters<typeof startReceiver>[0] = {}): Promise<Receiver> {
    const r = await startReceiver(opts);
    receivers.push(r);
    return r;
  }

  async function project(
    metaEvent: Partial<ProjectConfig['meta_event']>,
    strategy?: ProjectConfig['strategy'],
  ) {
    const id = newProjectId();
    await store.projects.insert({
      _id: id,
      name: `meta-${id}`,
      type: 'outgoing',
      config: {
        ...DEFAULT_PROJECT_CONFIG,
        strategy: strategy ?? DEFAULT_PROJECT_CONFIG.strategy,
        meta_event: { is_enabled: true, secret: SECRET, event_type: [], ...metaEvent },
      },
    });
    return id;
  }

  const occurrence = (
    projectId: ProjectId,
    eventType: MetaMessage['event_type'] = 'endpoint.created',
  ): MetaMessage => ({
    project_id: projectId,
    event_type: eventType,
    data: { uid: newId(), name: 'billing', 'dotted.key': 1 },
    occurred_at: new Date().toISOString(),
  });

  async function publish(...messages: MetaMessage[]) {
    await (await bus.connectPublisher()).publish('meta', messages);
  }

  const storedFor = (projectId: ProjectId, status: string) =>
    waitFor(`meta event ${status}`, async () => {
      const [doc] = await store.metaEvents.list(projectId, {}, 1000);
      return doc?.status === status ? doc : undefined;
    });

  it('records a meta event and POSTs {event_type, data} signed with the meta secret', async () => {
    const r = await receiver();
    const projectId = await project({ url: `${r.url}/meta` });
    const m = occurrence(projectId);
    await publish(m);

    const doc = await storedFor(projectId, 'Success');
    expect(r.requests).toHaveLength(1);
    const req = r.requests[0];
    expect(req.path).toBe('/meta');
    expect(JSON.parse(req.body)).toEqual({ event_type: 'endpoint.created', data: m.data });
    const expected = createHmac('sha256', SECRET).update(req.rawBody).digest('hex');
    expect(req.headers['x-hookrail-signature']).toBe(expected);
    expect(req.headers['x-hookrail-meta-event-id']).toBe(doc._id);
    expect(req.headers['content-type']).toBe('application/json');

    expect(doc.event_type).toBe('endpoint.created');
    expect(doc.metadata).toMatchObject({
      strategy: 'linear',
      interval_seconds: 100,
      retry_limit: 10,
      num_trials: 1,
    });
    expect(JSON.parse(doc.metadata.raw)).toEqual({ event_type: 'endpoint.created', data: m.data });
    // Stored as sent, under the project's signature header name.
    expect(JSON.parse(doc.attempt!.request_http_header_json)['X-Hookrail-Signature']).toBe(expected);
    expect(JSON.parse(doc.attempt!.response_http_header_json)['content-type']).toBe('text/plain');
    expect(doc.attempt!.response_data).toBe('ok');
  });

  it('stores but does not send when the project has meta events disabled', async () => {
    const r = await receiver();
    const projectId = await project({ is_enabled: false, url: `${r.url}/meta` });
    await publish(occurrence(projectId));
    const doc = await storedFor(projectId, 'Discarded');
    expect(doc.attempt ?? null).toBeNull();
    await new Promise((res) => setTimeout(res, 300));
    expect(r.count()).toBe(0);
  });

  it('sends only the selected types', async () => {
    const r = await receiver();
    const projectId = await project({ url: r.url, event_type: ['eventdelivery.failed'] });
    await publish(occurrence(projectId, 'endpoint.updated'), occurrence(projectId, 'eventdelivery.failed'));
    await waitFor('two meta events final', async () => {
      const docs = await store.metaEvents.list(projectId, {}, 1000);
      return docs.length === 2 && docs.every((d) => d.status === 'Discarded' || d.status === 'Success');
    });
    const docs = await store.metaEvents.list(projectId, {}, 1000);
    expect(Object.fromEntries(docs.map((d) => [d.event_type, d.status]))).toEqual({
      'endpoint.updated': 'Discarded',
      'eventdelivery.failed': 'Success',
    });
    expect(r.requests.map((q) => JSON.parse(q.body).event_type)).toEqual(['eventdelivery.failed']);
  });

  it('schedules a retry through the retries topic when the receiver fails, and succeeds when it is due', async () => {
    const r = await receiver({ fail: 1 });
    const projectId = await project({ url: r.url }, { type: 'linear', duration: 30, retry_count: 3 });
    const before = Date.now();
    await publish(occurrence(projectId, 'eventdelivery.failed'));

    const retrying = await storedFor(projectId, 'Retry');
    expect(retrying.attempt!.response_data).toBe('failing on purpose');
    expect(retrying.metadata.num_trials).toBe(1);
    const retry = await waitFor('retry message', () => retries.find((m) => m.delivery_id === retrying._id));
    expect(retry).toMatchObject({
      project_id: projectId,
      kind: 'meta',
      meta_event_type: 'eventdelivery.failed',
    });
    const due = Date.parse(retry.due_at);
    expect(due).toBeGreaterThanOrEqual(before + 30_000);
    expect(due).toBeLessThan(Date.now() + 31_000);
    expect(retrying.metadata.next_send_time?.getTime()).toBe(due);

    // What the retry-scheduler publishes when the entry is due.
    await publish({
      project_id: projectId,
      event_type: 'eventdelivery.failed',
      meta_event_id: retrying._id,
      data: null,
      occurred_at: new Date().toISOString(),
    });
    const done = await storedFor(projectId, 'Success');
    expect(done._id).toBe(retrying._id);
    expect(done.metadata.num_trials).toBe(2);
    expect(done.metadata.next_send_time).toBeNull();
    expect(r.requests).toHaveLength(2);
    expect(r.requests[1].rawBody.equals(r.requests[0].rawBody)).toBe(true);
  });

  it('marks the meta event Failure once the strategy retry_count is used up', async () => {
    const r = await receiver({ respond: () => ({ status: 503, body: 'down' }) });
    const projectId = await project({ url: r.url }, { type: 'linear', duration: 1, retry_count: 1 });
    await publish(occurrence(projectId));
    const retrying = await storedFor(projectId, 'Retry');
    await publish({
      project_id: projectId,
      event_type: 'endpoint.created',
      meta_event_id: retrying._id,
      data: null,
      occurred_at: new Date().toISOString(),
    });
    const failed = await storedFor(projectId, 'Failure');
    expect(failed.metadata.num_trials).toBe(2);
    expect(failed.attempt!.response_data).toBe('down');
    expect(r.count()).toBe(2);
  });

  it('is idempotent: a redelivered occurrence finds the same record and does not send again', async () => {
    const r = await receiver();
    const projectId = await project({ url: r.url });
    const deps = {
      store,
      publisher: await bus.connectPublisher(),
      http: new HttpClient({ allowPrivateTargets: true }),
      box: new SecretBox(undefined),
      logger: createLogger({ service: 'tests', level: 'silent' }),
      metrics: new Metrics('tests', { defaultMetrics: false }),
      now: () => new Date(),
    };
    const m = occurrence(projectId);
    const ctx = { topic: `${prefix}.meta`, partition: 1, offset: '77' };
    const first = await handleMetaMessage(deps, m, ctx);
    const again = await handleMetaMessage(deps, m, ctx);
    expect(first).toMatchObject({ kind: 'sent', status: 'Success' });
    expect(again).toEqual({ kind: 'skipped', reason: 'meta event is Success' });
    expect(await store.metaEvents.count(projectId)).toBe(1);
    expect(r.count()).toBe(1);
    // A stale due retry for a finished meta event sends nothing either.
    const stale = await handleMetaMessage(
      deps,
      { ...m, meta_event_id: (first as { meta_event_id: string }).meta_event_id },
      ctx,
    );
    expect(stale.kind).toBe('skipped');
    expect(r.count()).toBe(1);
    deps.http.close();
  });

  it('skips messages for unknown projects and unknown meta events without blocking the partition', async () => {
    const r = await receiver();
    const projectId = await project({ url: r.url });
    await publish(
      occurrence(newProjectId()),
      { ...occurrence(projectId), meta_event_id: newId() },
      occurrence(projectId, 'endpoint.deleted'),
    );
    const doc = await storedFor(projectId, 'Success');
    expect(doc.event_type).toBe('endpoint.deleted');
    expect(await store.metaEvents.count(projectId)).toBe(1);
  });
});
