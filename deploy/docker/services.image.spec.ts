import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Store } from '@hookrail/store';
import {
  callApi,
  createEndpoint,
  type CreatedEndpoint,
  deleteTopicsWithPrefix,
  startReceiver,
  uniquePrefix,
  waitFor,
  type Receiver,
} from '@hookrail/testkit';
import { brokerFixture, type BrokerFixture } from '../../services/source-consumer/src/testing/broker-fixture';
import { pubSubFor, type Kind } from '../../services/source-consumer/src/testing/broker-stack';
import { verifySimple } from '../../docs/verify/verify';
import { ContainerStack, podman, SERVICES } from './testing/container-stack';

const root = path.resolve(__dirname, '../..');
/** Built by deploy/docker/build.sh (deploy/local/test.sh builds it before this project runs). */
const IMAGE = process.env.HOOKRAIL_IMAGE ?? 'localhost/hookrail:dev';

jest.setTimeout(240_000);

const prefix = uniquePrefix('image');
const mongoUrl = `mongodb://127.0.0.1:27017/${prefix}?retryWrites=false`;
const adminKey = `hr_admin.${randomBytes(24).toString('base64url')}`;
const encryptionKey = randomBytes(32).toString('hex');
let stack: ContainerStack;
const serviceUrl = (name: string) => stack.url(name);
const containerName = (service: string) => stack.containerName(service);

const api = <T>(key: string, method: string, route: string, body?: unknown) =>
  callApi<T>(`${serviceUrl('api-gateway')}/api`, key, method, route, body);

let receiver: Receiver;
let projectKey: string;
let p: string;

beforeAll(async () => {
  receiver = await startReceiver();
  stack = await ContainerStack.of(IMAGE, { prefix, mongoUrl, adminKey, encryptionKey });
  // The set-up job (topics, migrations), then the six services, each from the image.
  await stack.setup();
  await stack.start();

  const project = await api<{ uid: string; api_key: { key: string } }>(adminKey, 'POST', '/v1/projects', {
    name: prefix,
    type: 'outgoing',
  });
  projectKey = project.api_key.key;
  p = `/v1/projects/${project.uid}`;
});

afterAll(async () => {
  // The containers' logs outlive them, for a failed run: .local/image-test/<service>.log.
  await stack?.remove('image-test').catch(() => undefined);
  await receiver?.close();
  await deleteTopicsWithPrefix(prefix).catch(() => undefined);
  const store = await Store.connect(mongoUrl, 'tests');
  await store.dropDatabase();
  await store.close();
});

/**
 * An endpoint at the receiver with a subscription to it (from `sourceId`, or for events sent to
 * the endpoint through the events API), optionally through a subscription function.
 */
async function subscribedEndpoint(
  name: string,
  opts: { sourceId?: string; fn?: string } = {},
): Promise<CreatedEndpoint> {
  const created = await createEndpoint(`${serviceUrl('api-gateway')}/api`, projectKey, p, {
    name,
    url: `${receiver.url}/${name}`,
  });

  await api(projectKey, 'POST', `${p}/subscriptions`, {
    name,
    endpoint_id: created.uid,
    ...(opts.sourceId ? { source_id: opts.sourceId } : {}),
    ...(opts.fn ? { function: opts.fn } : {}),
    filter_config: { event_types: ['*'] },
  });
  return created;
}

const carrying = (marker: string) => receiver.requests.filter((r) => r.body.includes(marker));

/** The first request carrying `marker`, its signature checked with the endpoint's secret. */
async function receivedSigned(marker: string, endpoint: CreatedEndpoint): Promise<Record<string, unknown>> {
  const got = await waitFor(`a delivery carrying ${marker}`, () => carrying(marker)[0], {
    timeoutMs: 60_000,
  });
  expect(verifySimple(got.rawBody, got.headers['x-hookrail-signature'] ?? '', [endpoint.secret])).toBe(true);
  return JSON.parse(got.body) as Record<string, unknown>;
}

describe(`the image (${IMAGE})`, () => {
  it('runs every service as uid 10001 on a read-only root file system, ready', async () => {
    const { stdout } = await podman(
      'inspect',
      '--format',
      '{{.Name}} {{.Config.User}} {{.HostConfig.ReadonlyRootfs}} {{.State.Running}}',
      ...SERVICES.map(containerName),
    );
    expect(stdout.trim().split('\n').sort()).toEqual(
      SERVICES.map((s) => `${containerName(s)} 10001 true true`).sort(),
    );
    for (const s of SERVICES)
      expect({ s, status: (await fetch(`${serviceUrl(s)}/readyz`)).status }).toEqual({ s, status: 200 });
  });

  it('delivers an event from the events API, signed, through a subscription function (quickjs in the bundle)', async () => {
    const endpoint = await subscribedEndpoint('events-api', {
      fn: 'function transform(p) { p.transformed = true; return p }',
    });
    const marker = `evt-${randomBytes(6).toString('hex')}`;
    await api(projectKey, 'POST', `${p}/events`, {
      endpoint_id: endpoint.uid,
      event_type: 'invoice.paid',
      data: { marker, amount: 4200 },
    });
    expect(await receivedSigned(marker, endpoint)).toEqual({ marker, amount: 4200, transformed: true });
    expect(carrying(marker)).toHaveLength(1);
  });

  it('delivers a request to an HTTP source, signed, after the source body function', async () => {
    const source = await api<{ uid: string; url: string }>(projectKey, 'POST', `${p}/sources`, {
      name: 'orders',
      type: 'http',
      body_function: 'function transform(b) { b.seen_by_ingest = true; return b }',
    });
    const endpoint = await subscribedEndpoint('http-source', { sourceId: source.uid });
    const marker = `src-${randomBytes(6).toString('hex')}`;
    const res = await fetch(source.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ marker }),
    });
    expect(res.status).toBe(200);
    expect(await receivedSigned(marker, endpoint)).toEqual({ marker, seen_by_ingest: true });
    expect(carrying(marker)).toHaveLength(1);
  });

  // The bundled broker clients (amqplib, the AWS SDK, Google's gRPC client, kafkajs) in the image.
  const fixtures: BrokerFixture[] = [];
  afterAll(() => Promise.all(fixtures.map((f) => f.close())));
  it.each<Kind>(['amqp', 'sqs', 'google', 'kafka'])(
    'delivers a message from a %s broker source',
    async (kind) => {
      const name = `${prefix}-${kind}`;
      const fixture = await brokerFixture(kind, name);
      fixtures.push(fixture);
      const source = await api<{ uid: string }>(projectKey, 'POST', `${p}/sources`, {
        name,
        type: 'pub_sub',
        pub_sub: pubSubFor(kind, name, 1),
      });
      const endpoint = await subscribedEndpoint(`broker-${kind}`, { sourceId: source.uid });
      const marker = `${kind}-${randomBytes(6).toString('hex')}`;
      // An outgoing project's broker message is addressed as the events API's body is. A broker
      // source starts consuming once source-consumer has read the new source: publish again until
      // one arrives (a new Kafka consumer group may start at the newest offset).
      const message = { endpoint_id: endpoint.uid, event_type: 'broker.message', data: { marker } };
      await waitFor(
        `a delivery from the ${kind} source`,
        async () => carrying(marker).length > 0 || void (await fixture.publish([message])),
        { timeoutMs: 60_000, intervalMs: 3000 },
      );
      expect(await receivedSigned(marker, endpoint)).toEqual({ marker });
    },
  );

  it('runs the Node package.json pins, and has no shell', async () => {
    const { engines } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      engines: { node: string };
    };
    const { stdout } = await podman('run', '--rm', '--entrypoint', '/usr/local/bin/node', IMAGE, '--version');
    expect(stdout.trim()).toBe(`v${engines.node}`);

    await expect(podman('run', '--rm', '--entrypoint', '/bin/sh', IMAGE, '-c', 'true')).rejects.toThrow(
      /no such file or directory/,
    );
  });

  it('stops every service within 10 s of SIGTERM, cleanly', async () => {
    const stopped = await Promise.all(
      SERVICES.map(async (s) => {
        const t0 = Date.now();
        await podman('kill', '--signal', 'TERM', containerName(s));
        const { stdout } = await podman('wait', containerName(s));
        return { s, exitCode: Number(stdout.trim()), withinTenSeconds: Date.now() - t0 < 10_000 };
      }),
    );
    expect(stopped).toEqual(SERVICES.map((s) => ({ s, exitCode: 0, withinTenSeconds: true })));
  });
});
