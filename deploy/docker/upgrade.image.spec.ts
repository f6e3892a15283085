import { randomBytes } from 'node:crypto';
import { Store } from '@hookrail/store';
import {
  callApi,
  createEndpoint,
  type CreatedEndpoint,
  deleteTopicsWithPrefix,
  listAllPages,
  startReceiver,
  uniquePrefix,
  waitFor,
  type Receiver,
} from '@hookrail/testkit';
import { ContainerStack } from './testing/container-stack';

/**
 * The upgrade from the previous release with the services stopped. The previous release's image
 * (deploy/docker/build-previous.sh) sets up a database and fills it with the e2e bench's kinds of
 * traffic: events API events (a third with idempotency keys), HTTP source requests, and an endpoint
 * that fails so that its deliveries wait for retries. Its services stop; this image's set-up
 * migrates the database; this image's services then find, retry and deduplicate what the previous
 * release stored, and deliver new events: nothing lost, nothing sent twice.
 */
const PREVIOUS_IMAGE = 'localhost/hookrail:previous';
const IMAGE = process.env.HOOKRAIL_IMAGE ?? 'localhost/hookrail:dev';
/** Events of each kind the previous release takes. */
const PER_KIND = 100;

jest.setTimeout(300_000);

const prefix = uniquePrefix('upgrade');
const settings = {
  prefix,
  mongoUrl: `mongodb://127.0.0.1:27017/${prefix}?retryWrites=false`,
  adminKey: `hr_admin.${randomBytes(24).toString('base64url')}`,
  encryptionKey: randomBytes(32).toString('hex'),
};

let previous: ContainerStack;
let current: ContainerStack | undefined;
let receiver: Receiver;
/** The failing endpoint answers 500 until the upgrade is over. */
let failing = true;
let projectKey: string;
let p: string;
let steady: CreatedEndpoint;
let flaky: CreatedEndpoint;
let sourceId: string;
let sourceUrl: string;
const gateway = () => (current ?? previous).url('api-gateway');
const api = <T>(method: string, route: string, body?: unknown) =>
  callApi<T>(`${gateway()}/api`, projectKey, method, route, body);

/** The markers of the requests that reached `path`, in arrival order. */
const arrived = (path: string) =>
  receiver.requests
    .filter((r) => r.path === path)
    .map((r) => (JSON.parse(r.body) as { marker: string }).marker);

beforeAll(async () => {
  receiver = await startReceiver({
    respond: (req) => (req.path === '/flaky' && failing ? { status: 500, body: 'down' } : { status: 200 }),
  });
  previous = await ContainerStack.of(PREVIOUS_IMAGE, settings);
  await previous.setup();
  await previous.start();
  await previousReleaseTraffic();
  await previous.remove('upgrade-test/previous', 10);
});

afterAll(async () => {
  await current?.remove('upgrade-test/current').catch(() => undefined);
  await previous?.remove('upgrade-test/previous').catch(() => undefined);
  await receiver?.close();
  await deleteTopicsWithPrefix(prefix).catch(() => undefined);
  const store = await Store.connect(settings.mongoUrl, 'tests');
  await store.dropDatabase();
  await store.close();
});

/** What the previous release stores: delivered events of three kinds, and deliveries waiting to retry. */
async function previousReleaseTraffic(): Promise<void> {
  const project = await callApi<{ uid: string; api_key: { key: string } }>(
    `${gateway()}/api`,
    settings.adminKey,
    'POST',
    '/v1/projects',
    {
      name: prefix,
      type: 'outgoing',
      config: {
        strategy: { type: 'linear', duration: 3, retry_count: 50 },
        circuit_breaker: { probe_interval_seconds: 2 },
      },
    },
  );
  projectKey = project.api_key.key;
  p = `/v1/projects/${project.uid}`;
  const endpoint = (name: string) =>
    createEndpoint(`${gateway()}/api`, projectKey, p, { name, url: `${receiver.url}/${name}` });
  [steady, flaky] = [await endpoint('steady'), await endpoint('flaky')];
  const fromSource = await endpoint('from-source');
  const source = await api<{ uid: string; url: string }>('POST', `${p}/sources`, {
    name: 'orders',
    type: 'http',
  });
  [sourceId, sourceUrl] = [source.uid, source.url];
  await api('POST', `${p}/subscriptions`, {
    name: 'from the source',
    endpoint_id: fromSource.uid,
    source_id: sourceId,
    filter_config: { event_types: ['*'] },
  });
  for (let i = 0; i < PER_KIND; i++) {
    await sendEvent(steady, `old-${i}`);
    await sendToSource(`old-source-${i}`);
    await sendEvent(flaky, `old-flaky-${i}`);
  }
  // The flaky endpoint's breaker opens after its first failures; every one of its deliveries is
  // stored, most of them held or waiting for a retry, when the services stop.
  await waitFor(
    'the previous release to deliver its events and store the flaky ones',
    async () =>
      arrived('/steady').length >= PER_KIND &&
      arrived('/from-source').length >= PER_KIND &&
      (await listAll(`${p}/eventdeliveries?endpointId=${flaky.uid}`)).length === PER_KIND,
    { timeoutMs: 120_000, intervalMs: 1000 },
  );
}

/** An events API event; every third carries an idempotency key named after its marker. */
async function sendEvent(endpoint: CreatedEndpoint, marker: string, seq = Number(marker.split('-').pop())) {
  await api('POST', `${p}/events`, {
    endpoint_id: endpoint.uid,
    event_type: 'order.created',
    data: { marker },
    ...(seq % 3 === 0 ? { idempotency_key: `key-${marker}` } : {}),
  });
}

async function sendToSource(marker: string): Promise<void> {
  const res = await fetch(sourceUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ marker }),
  });
  if (!res.ok) throw new Error(`the source answered ${res.status}: ${await res.text()}`);
}

/** Every item of a list of the project, page after page. */
const listAll = (route: string) => listAllPages(`${gateway()}/api`, projectKey, route);

describe(`upgrading from the previous release (${PREVIOUS_IMAGE}) with its services stopped`, () => {
  it("this image's set-up applies every migration and leaves no document without list keys", async () => {
    current = await ContainerStack.of(IMAGE, settings, previous.portMap);
    await current.setup();
    expect(await current.setup('migrate', 'status')).toMatch(/^\d+ applied, 0 pending$/m);
    const store = await Store.connect(settings.mongoUrl, 'tests');
    try {
      const rows = await store.migrations().status();
      expect(rows.length).toBeGreaterThanOrEqual(4);
      expect(rows.filter((r) => r.state !== 'applied')).toEqual([]);
      expect(await store.migrations().pendingCount()).toBe(0);
    } finally {
      await store.close();
    }
    await current.start();
  });

  it('lists what the previous release stored by source, endpoint and status', async () => {
    const bySource = await listAll(`${p}/events?sourceId=${sourceId}`);
    expect(bySource).toHaveLength(PER_KIND);
    const toSteady = await listAll(`${p}/eventdeliveries?endpointId=${steady.uid}&status=Success`);
    expect(toSteady).toHaveLength(PER_KIND);
    const keyed = await listAll(`${p}/events?idempotencyKey=key-old-3`);
    expect(keyed).toHaveLength(1);
  });

  it("retries the previous release's failed deliveries once the endpoint recovers", async () => {
    failing = false;
    const succeeded = await listAll(`${p}/eventdeliveries?endpointId=${flaky.uid}&status=Success`);
    expect(succeeded).toEqual([]);
    await waitFor(
      'every flaky delivery in Success',
      async () =>
        (await listAll(`${p}/eventdeliveries?endpointId=${flaky.uid}&status=Success`)).length === PER_KIND,
      { timeoutMs: 120_000, intervalMs: 1000 },
    );
    expect(new Set(arrived('/flaky')).size).toBe(PER_KIND);
  });

  it("drops a repeat of the previous release's idempotency key, and delivers new events", async () => {
    await sendEvent(steady, 'old-0');
    await sendEvent(steady, 'new-1');
    await sendToSource('new-source-1');
    await waitFor(
      'the new events delivered',
      () => arrived('/steady').includes('new-1') && arrived('/from-source').includes('new-source-1'),
    );
    // The repeat is stored as the old event's duplicate (a batched write: it may land after new-1).
    const repeated = await waitFor('the repeat stored', async () => {
      const events = await listAll(`${p}/events?idempotencyKey=key-old-0`);
      return events.length === 2 && events;
    });
    expect(repeated.filter((e) => e.is_duplicate_event)).toHaveLength(1);
    // Nothing the previous release delivered arrived twice, and every old event arrived.
    for (const path of ['/steady', '/from-source']) {
      const markers = arrived(path).filter((m) => m.startsWith('old'));
      const twice = markers.filter((m, i) => markers.indexOf(m) !== i);
      expect({ path, twice, count: new Set(markers).size }).toEqual({ path, twice: [], count: PER_KIND });
    }
  });
});
