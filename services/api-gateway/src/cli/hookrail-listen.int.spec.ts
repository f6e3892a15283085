import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { ResponseOf } from '@hookrail/api-contract';
import { managementOperations as api } from '@hookrail/api-contract';
import { runCli } from '@hookrail/cli';
import { RELAY_CREDENTIAL_HEADER } from '@hookrail/domain';
import { HTTP_DRAIN_CUT_LOG, type RunningService } from '@hookrail/runtime';
import { verifyHmac } from '@hookrail/signing';
import {
  captureLogs,
  sparePort,
  startReceiver,
  startTestService,
  testConfig,
  waitFor,
  type Receiver,
} from '@hookrail/testkit';
import { definition as dispatcher } from '../../../dispatcher/src/service';
import { definition as retryScheduler } from '../../../retry-scheduler/src/service';
import { definition as gateway } from '../service';
import { GatewayHarness } from '../testing/gateway-harness';

jest.setTimeout(120_000);

const root = path.resolve(__dirname, '../../../..');
const BIN = path.join(root, 'apps/cli/bin/hookrail.mjs');
const ENCRYPTION_KEY = 'listen-test-encryption-key';

type Delivery = ResponseOf<typeof api.getEventDelivery>;
type Attempt = ResponseOf<typeof api.listDeliveryAttempts>[number];

/** `hookrail listen` as a process: its stdout lines (JSON with --json), its exit. */
class Listening {
  readonly lines: string[] = [];
  readonly errLines: string[] = [];
  readonly exited: Promise<number | null>;
  constructor(readonly child: ChildProcessWithoutNullStreams) {
    const split = (into: string[]) => {
      let rest = '';
      return (chunk: Buffer) => {
        const parts = (rest + chunk.toString('utf8')).split('\n');
        rest = parts.pop() ?? '';
        into.push(...parts);
      };
    };
    child.stdout.on('data', split(this.lines));
    child.stderr.on('data', split(this.errLines));
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  }
  /** The JSON lines of one `type`. */
  events(type: string): Record<string, unknown>[] {
    return this.lines
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((e) => e.type === type);
  }
}

/**
 * A balancer like a Kubernetes Service in front of gateway replicas: each request to the next one,
 * but paths `pinned` names go to its replica.
 */
async function roundRobin(upstreams: string[], pinned: (path: string) => string | undefined) {
  const routed: { method: string; path: string; upstream: string }[] = [];
  let next = 0;
  const server = http.createServer((req, res) => {
    const upstream = pinned(req.url!) ?? upstreams[next++ % upstreams.length];
    routed.push({ method: req.method!, path: req.url!, upstream });
    const out = http.request(`${upstream}${req.url}`, { method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode!, up.headers);
      up.pipe(res);
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    routed,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections(); // a stream through it would hold the close forever
      }),
  };
}

/**
 * `hookrail listen` end to end on the real servers: the gateway (restarted in one test), a
 * dispatcher relaying to it, a retry-scheduler with 1 s retries, a local receiver standing for the
 * developer's app, and the CLI as a real process.
 */
describe('hookrail listen', () => {
  const h = new GatewayHarness();
  /** The first gateway's logs (the one the restart test stops). */
  const gatewayLogs = captureLogs('api-gateway');
  const services: RunningService[] = [];
  /** A second gateway on the same topics: sends events while the listened one is down. */
  let other: RunningService;
  let local: Receiver;
  let p: { id: string; key: string };
  let env: NodeJS.ProcessEnv;
  const running: Listening[] = [];
  /** Paths of the local app answering 500 to their first request. */
  const failOnce = new Set<string>();

  const ports: number[] = [];
  const gatewayEnv = (replica = 0) => ({
    HOOKRAIL_KAFKA_TOPIC_PREFIX: h.prefix,
    HOOKRAIL_ENCRYPTION_KEY: ENCRYPTION_KEY,
    HOOKRAIL_HTTP_PORT: String(ports[replica]),
    HOOKRAIL_CLI_RELAY_ADVERTISE_URL: `http://127.0.0.1:${ports[replica]}`,
  });

  function listen(...args: string[]): Listening {
    const l = new Listening(spawn(process.execPath, [BIN, 'listen', ...args], { env }));
    running.push(l);
    return l;
  }
  const cli = async (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l) }, env);
    return { code, out: out.join('\n'), err: err.join('\n') };
  };
  const sendEvent = async (type: string, data: unknown, via = h.gateway.url) => {
    const res = await fetch(`${via}/api/v1/projects/${p.id}/events/broadcast`, {
      method: 'POST',
      headers: { authorization: `Bearer ${p.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ event_type: type, data }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { data: { uid: string } }).data.uid;
  };
  /** Read through the other gateway, which stays up while the listened one restarts. */
  const read = async <T>(path: string): Promise<T> => {
    const res = await fetch(`${other.url}/api/v1/projects/${p.id}${path}`, {
      headers: { authorization: `Bearer ${p.key}` },
    });
    return ((await res.json()) as { data: T }).data;
  };
  const deliveryOf = (eventId: string) =>
    waitFor(`the delivery of ${eventId}`, async () => {
      return (await read<{ content: Delivery[] }>(`/eventdeliveries?eventId=${eventId}`)).content[0];
    });
  const attemptsOf = (deliveryId: string) =>
    read<Attempt[]>(`/eventdeliveries/${deliveryId}/deliveryattempts`);
  const succeeded = (eventId: string, timeoutMs = 20_000) =>
    waitFor(
      `the delivery of ${eventId} to succeed`,
      async () => {
        const d = await deliveryOf(eventId);
        return d.status === 'Success' ? d : undefined;
      },
      { timeoutMs, intervalMs: 200 },
    );
  const connected = (l: Listening, n = 1) =>
    waitFor('the listener connected', () => l.events('connected').length >= n, { timeoutMs: 30_000 });

  beforeAll(async () => {
    ports.push(await sparePort(), await sparePort());
    await h.start(gatewayEnv(), gatewayLogs.logger);
    const common = {
      HOOKRAIL_KAFKA_TOPIC_PREFIX: h.prefix,
      HOOKRAIL_ENCRYPTION_KEY: ENCRYPTION_KEY,
      HOOKRAIL_CLI_RELAY_URL: h.gateway.url,
    };
    services.push(
      await startTestService(dispatcher(testConfig('dispatcher', common))),
      await startTestService(retryScheduler(testConfig('retry-scheduler', common))),
    );
    other = await startTestService(gateway(testConfig('api-gateway', gatewayEnv(1))));
    local = await startReceiver({
      respond: (req) => {
        if (failOnce.delete(req.path)) return { status: 500, body: 'not yet' };
        return { status: 200, headers: { 'x-local': 'yes' }, body: `got ${req.path}` };
      },
    });
    p = await h.createProject('outgoing', { strategy: { type: 'linear', duration: 1, retry_count: 60 } });
    env = {
      PATH: process.env.PATH,
      XDG_CONFIG_HOME: mkdtempSync(path.join(tmpdir(), 'hookrail-listen-')),
      HOOKRAIL_URL: h.gateway.url,
      HOOKRAIL_PROJECT_ID: p.id,
      HOOKRAIL_API_KEY: p.key,
    };
  });
  // A test that failed half-way leaves no listener to take the next test's deliveries.
  afterEach(() => {
    for (const l of running.splice(0)) if (l.child.exitCode === null) l.child.kill('SIGKILL');
  });
  afterAll(async () => {
    await local?.close();
    await other?.stop();
    for (const s of services.reverse()) await s.stop();
    await h.stop();
  });

  it('receives a delivery with signature headers that verify, answers it, and the attempt is the local answer', async () => {
    const l = listen(
      `${local.url}/hooks`,
      '--events',
      'invoice.*,order.created',
      '--name',
      'dev-laptop',
      '--json',
    );
    await connected(l);
    const [started] = l.events('started');
    expect(started).toMatchObject({
      name: 'dev-laptop',
      event_types: ['invoice.*', 'order.created'],
      forward_to: `${local.url}/hooks`,
      changes: ['created', 'subscribed to invoice.*, order.created'],
    });
    const endpointId = started.endpoint_id as string;
    const endpoint = (await h.call('GET', `/v1/projects/${p.id}/endpoints/${endpointId}`, { key: p.key }))
      .body.data;
    expect(endpoint).toMatchObject({ type: 'cli', url: '', name: 'dev-laptop' });

    const eventId = await sendEvent('invoice.paid', { invoice: 'inv_1' });
    const req = await waitFor('the local request', () =>
      local.requests.find((r) => r.body.includes('inv_1')),
    );
    expect(req.path).toBe('/hooks');
    expect(req.headers['x-hookrail-event-id']).toBe(eventId);
    expect(req.headers['x-hookrail-event-type']).toBe('invoice.paid');
    const secret = endpoint.secrets.at(-1).value as string;
    expect(
      verifyHmac({ header: 'X-Hookrail-Signature', hash: 'SHA256', encoding: 'hex', secret }, req),
    ).toEqual({ ok: true });

    const delivery = await succeeded(eventId);
    const [attempt] = await attemptsOf(delivery.uid);
    expect(attempt).toMatchObject({
      http_status_code: 200,
      url: `${local.url}/hooks`,
      response_data: 'got /hooks',
    });
    expect(attempt.response_http_header).toMatchObject({ 'x-local': 'yes' });
    expect(attempt.request_http_header).toMatchObject({
      'X-Hookrail-Signature': req.headers['x-hookrail-signature'],
    });
    const [line] = await waitFor(
      'the delivery line',
      () => l.events('delivery').length > 0 && l.events('delivery'),
    );
    expect(line).toMatchObject({
      delivery_id: delivery.uid,
      event_type: 'invoice.paid',
      status: 200,
      reported: true,
    });
    expect(line.latency_ms).toEqual(expect.any(Number));

    const metrics = await (await fetch(`${h.gateway.url}/metrics`)).text();
    expect(metrics).toMatch(/^hookrail_cli_listeners\{[^}]*\} 1$/m);
    expect(metrics).toMatch(/^hookrail_cli_relay_requests_total\{[^}]*outcome="answered"[^}]*\} 1$/m);

    const shown = await cli('deliveries', 'show', delivery.uid);
    expect(shown.code).toBe(0);
    expect(shown.out).toMatch(/200\s+\d+ ms\s+got \/hooks/);

    // Not subscribed: no delivery to the cli endpoint.
    const ignored = await sendEvent('user.created', { user: 1 });
    await new Promise((r) => setTimeout(r, 1_000));
    expect((await read<{ content: Delivery[] }>(`/eventdeliveries?eventId=${ignored}`)).content).toEqual([]);

    // Stopped: the endpoint and its subscription are removed, so nothing collects deliveries nobody receives.
    l.child.kill('SIGINT');
    expect(await l.exited).toBe(0);
    expect(l.events('stopped')).toEqual([
      expect.objectContaining({ endpoint_id: endpointId, name: 'dev-laptop', removed: true }),
    ]);
    expect((await h.call('GET', `/v1/projects/${p.id}/endpoints/${endpointId}`, { key: p.key })).status).toBe(
      404,
    );
    const subscriptions = await h.call('GET', `/v1/projects/${p.id}/subscriptions?endpointId=${endpointId}`, {
      key: p.key,
    });
    expect(subscriptions.body.data.content).toEqual([]);
  });

  it('delivers events one after another in tens of milliseconds (figures printed), each once', async () => {
    const l = listen(
      `${local.url}/timed`,
      '--events',
      'invoice.*',
      '--name',
      'dev-laptop',
      '--keep',
      '--json',
    );
    await connected(l);
    // Created again (the previous listen removed it); kept when this one stops.
    expect(l.events('started')[0]).toMatchObject({ changes: ['created', 'subscribed to invoice.*'] });
    const took: number[] = [];
    for (let n = 0; n < 20; n++) {
      const started = performance.now();
      await sendEvent('invoice.timed', { n });
      await waitFor(
        'the local request',
        () => local.requests.some((r) => r.path === '/timed' && JSON.parse(r.body).n === n),
        {
          intervalMs: 2,
        },
      );
      took.push(performance.now() - started);
    }
    await waitFor('20 reported', () => l.events('delivery').length === 20);
    const sorted = [...took].sort((a, b) => a - b);
    const local_ = l.events('delivery').map((d) => d.latency_ms as number);
    console.log(
      `listen: events API 201 → local app, 20 sequential events: p50 ${sorted[9].toFixed(0)} ms, max ${sorted[19].toFixed(0)} ms; local request latency as reported: max ${Math.max(...local_)} ms`,
    );
    expect(local.requests.filter((r) => r.path === '/timed')).toHaveLength(20);
    l.child.kill('SIGINT');
    expect(await l.exited).toBe(0);
    expect(l.events('stopped')).toEqual([expect.objectContaining({ name: 'dev-laptop', removed: false })]);
  });

  it('a local 500 is a failed attempt, retried by the schedule until the local app answers 2xx', async () => {
    const l = listen(`${local.url}/flaky`, '--events', 'invoice.*', '--name', 'dev-laptop', '--json');
    await connected(l);
    // Reused (the previous listen kept it): the same endpoint, nothing to change.
    expect(l.events('started')[0]).toMatchObject({ changes: [] });
    failOnce.add('/flaky');
    const eventId = await sendEvent('invoice.failed', { invoice: 'inv_500' });
    const delivery = await succeeded(eventId);
    const attempts = await attemptsOf(delivery.uid);
    expect(attempts.map((a) => a.http_status_code)).toEqual([500, 200]);
    expect(attempts[0]).toMatchObject({ url: `${local.url}/flaky`, response_data: 'not yet' });
    expect(l.events('delivery').map((d) => d.status)).toEqual([500, 200]);
    l.child.kill('SIGINT');
    expect(await l.exited).toBe(0);
  });

  it('holds a delivery while nobody listens (no attempt, no failure); a local app slower than the endpoint timeout is a failed attempt; retried until delivered', async () => {
    const name = 'late-laptop';
    const create = await h.call('POST', `/v1/projects/${p.id}/endpoints`, {
      key: p.key,
      body: { name, type: 'cli', http_timeout: 2 },
    });
    const endpointId = create.body.data.uid as string;
    // aimed at the endpoint: the router gives it a catch-all subscription; nobody listens yet
    const sent = await h.call('POST', `/v1/projects/${p.id}/events`, {
      key: p.key,
      body: { endpoint_id: endpointId, event_type: 'late.arrival', data: { n: 1 } },
    });
    expect(sent.status).toBe(201);
    const eventId = sent.body.data.uid as string;
    // nobody listens: held, asked again every few seconds, without an attempt or a retry spent
    const held = await waitFor('the delivery held', async () => {
      const d = await deliveryOf(eventId);
      return d.status === 'Scheduled' && d.status_reason === 'held: no hookrail listen connected'
        ? d
        : undefined;
    });
    expect(held).toMatchObject({ attempts_made: 0, retries_used: 0 });
    // past the dispatcher's next look at it (LISTENER_RECHECK_MS, 5 s, in libs/delivery)
    await new Promise((r) => setTimeout(r, 7_000));
    expect(await deliveryOf(eventId)).toMatchObject({
      status: 'Scheduled',
      attempts_made: 0,
      retries_used: 0,
    });
    expect(await attemptsOf(held.uid)).toEqual([]);

    const slow = await startReceiver({ delayMs: 3_000 });
    try {
      const l = listen(`${slow.url}/slow`, '--events', 'late.*', '--name', name, '--keep', '--json');
      await connected(l);
      const timedOut = await waitFor('a timed-out attempt', async () =>
        (await attemptsOf((await deliveryOf(eventId)).uid)).find((a) => a.url === `${slow.url}/slow`),
      );
      expect(timedOut.http_status_code).toBeNull();
      expect(timedOut.error).toMatch(/^ETIMEDOUT: /);
      expect(l.events('delivery')[0]).toMatchObject({ status: null, error: { code: 'ETIMEDOUT' } });
      l.child.kill('SIGINT');
      expect(await l.exited).toBe(0);
    } finally {
      await slow.close();
    }
    // the app comes back: the schedule delivers it
    const l = listen(`${local.url}/late`, '--events', 'late.*', '--name', name, '--json');
    await connected(l);
    await succeeded(eventId);
    // stopped without --keep: the endpoint goes, and its catch-all subscription, which would take
    // the next tests' events, with it
    l.child.kill('SIGINT');
    expect(await l.exited).toBe(0);
    expect(l.events('stopped')).toEqual([
      expect.objectContaining({ endpoint_id: endpointId, removed: true }),
    ]);
  });

  it('reconnects after the gateway restarts; an event sent while it was down is retried and delivered', async () => {
    const l = listen(`${local.url}/restart`, '--events', 'invoice.*', '--name', 'dev-laptop', '--json');
    await connected(l);
    await h.gateway.stop();
    // The stream ended as the stop began: the HTTP drain did not wait until it was cut (the cut,
    // at the end of the grace, is logged). Not the stop's wall time: the grace is where a drain
    // that waited would end, and on a busy host the closes after the drain take seconds of it.
    expect(gatewayLogs.lines().map((l) => l.msg)).not.toContain(HTTP_DRAIN_CUT_LOG);
    await waitFor('the listener to notice', () => l.events('disconnected').length > 0);

    // Accepted by the other gateway while the listened one is down: its attempts fail until the CLI is back.
    const whileDown = await sendEvent('invoice.paid', { invoice: 'while_down' }, other.url);
    await waitFor('a failed attempt', async () => (await deliveryOf(whileDown)).attempts_made > 0);
    h.gateway = await startTestService(gateway(testConfig('api-gateway', gatewayEnv())));
    await connected(l, 2);
    expect(l.events('connected').at(-1)).toMatchObject({ reconnected: true });

    const delivered = await succeeded(whileDown, 30_000);
    const attempts = await attemptsOf(delivered.uid);
    expect(attempts.at(-1)).toMatchObject({ http_status_code: 200, url: `${local.url}/restart` });
    expect(attempts.slice(0, -1).every((a) => a.http_status_code === null && a.error)).toBe(true);
    expect(attempts.length).toBeGreaterThan(1);

    const after = await sendEvent('invoice.paid', { invoice: 'after_restart' });
    await succeeded(after);
    const arrived = local.requests
      .filter((r) => r.path === '/restart')
      .map((r) => JSON.parse(r.body).invoice);
    expect(arrived).toEqual(['while_down', 'after_restart']);
    l.child.kill('SIGINT');
    expect(await l.exited).toBe(0);
  });

  it('works over two gateway replicas behind a balancer: relay calls and answers reach the replica holding the stream', async () => {
    // The stream on the replica the dispatcher does not call: every relay call is forwarded.
    const balancer = await roundRobin([h.gateway.url, other.url], (path) =>
      path.includes('/listen?') ? other.url : undefined,
    );
    const saved = env;
    env = { ...env, HOOKRAIL_URL: balancer.url };
    try {
      const l = listen(`${local.url}/replicas`, '--events', 'invoice.*', '--name', 'dev-laptop', '--json');
      await connected(l);
      const ids: string[] = [];
      for (const n of [1, 2, 3, 4]) ids.push(await sendEvent('invoice.paid', { n }));
      for (const id of ids) {
        const d = await succeeded(id);
        expect((await attemptsOf(d.uid)).map((a) => a.http_status_code)).toEqual([200]);
      }
      // The answers went through the balancer to both replicas: those that reached the one without
      // the waiting attempt were forwarded to it.
      const answers = balancer.routed.filter((r) => r.path.endsWith('/listen/answers'));
      expect(new Set(answers.map((a) => a.upstream))).toEqual(new Set([h.gateway.url, other.url]));
      l.child.kill('SIGINT');
      expect(await l.exited).toBe(0);
    } finally {
      env = saved;
      await balancer.close();
    }
  });

  it("runs docs/cli.md's listen walkthrough as pasted (only the gateway's and the app's addresses swapped)", async () => {
    const doc = readFileSync(path.join(root, 'docs/cli.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## Receive deliveries on your machine'));
    const block = /```bash\n([\s\S]*?)\n```/.exec(section)![1];
    const script = block
      .replaceAll('http://localhost:3000/hooks', `${local.url}/walkthrough`)
      .replaceAll('http://localhost:8080', h.gateway.url);
    expect(script).not.toMatch(/localhost:(3000|8080)/);
    // a project of its own: broadcasts reach only the walkthrough's endpoint
    const q = await h.createProject('outgoing', {
      strategy: { type: 'linear', duration: 1, retry_count: 5 },
    });
    const { stdout } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', script], {
      cwd: root,
      timeout: 60_000,
      env: {
        PATH: `${path.dirname(process.execPath)}:${process.env.PATH}`,
        XDG_CONFIG_HOME: mkdtempSync(path.join(tmpdir(), 'hookrail-walk-')),
        HOOKRAIL_URL: h.gateway.url,
        HOOKRAIL_PROJECT_ID: q.id,
        HOOKRAIL_API_KEY: q.key,
      },
    });
    expect(stdout).toContain('Endpoint my-laptop (');
    expect(stdout).toContain('(created; subscribed to invoice.*), event types invoice.*');
    expect(stdout).toContain('Connected: waiting for deliveries.');
    expect(stdout).toMatch(/invoice\.paid {2}\S+ {2}→ 200 {2}\d+ ms/);
    expect(stdout).toMatch(/Removed endpoint my-laptop \(\S+\) and its subscriptions\./);
    expect(stdout).toMatch(/Delivery \S+ +invoice\.paid +Success +to \S+/);
    expect(stdout.match(/200\s+\d+ ms\s+got \/walkthrough/g)).toHaveLength(2);
    expect(local.requests.filter((r) => r.path === '/walkthrough')).toHaveLength(2);
  });

  it('refuses bad input: a bad local URL (exit 2), another project’s endpoint (404), a relay call without the credential (401)', async () => {
    const bad = listen('not a url');
    expect(await bad.exited).toBe(2);
    expect(bad.errLines.join('\n')).toContain('<local-url>: "not a url" is not a URL');
    const ftp = await cli('listen', 'ftp://localhost/x');
    expect(ftp).toMatchObject({ code: 2, err: 'hookrail: <local-url>: must be http or https, not ftp:' });
    expect((await cli('listen', 'http://localhost:3000', '--events', ' , ')).code).toBe(2);

    const q = await h.createProject();
    const theirs = await h.call('POST', `/v1/projects/${q.id}/endpoints`, {
      key: q.key,
      body: { name: 'x', type: 'cli' },
    });
    expect(theirs.status).toBe(201);
    const stream = (projectId: string, endpointId: string, key: string) =>
      fetch(`${h.gateway.url}/api/v1/projects/${projectId}/endpoints/${endpointId}/listen`, {
        headers: { authorization: `Bearer ${key}` },
      });
    expect((await stream(p.id, theirs.body.data.uid, p.key)).status).toBe(404);
    expect((await stream(q.id, theirs.body.data.uid, p.key)).status).toBe(403);
    const http = await h.call('POST', `/v1/projects/${p.id}/endpoints`, {
      key: p.key,
      body: { name: 'web', url: `${local.url}/web` },
    });
    const refused = await stream(p.id, http.body.data.uid, p.key);
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { message: string }).message).toContain('only a cli endpoint');

    const withUrl = await h.call('POST', `/v1/projects/${p.id}/endpoints`, {
      key: p.key,
      body: { name: 'c', type: 'cli', url: 'https://e.com' },
    });
    expect(withUrl.status).toBe(400);
    expect(withUrl.body.data.errors[0].field).toBe('url');

    const relay = (headers: Record<string, string>) =>
      fetch(`${h.gateway.url}/relay/v1/projects/${q.id}/endpoints/${theirs.body.data.uid}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({
          delivery_id: 'd',
          event_id: 'e',
          event_type: 't',
          headers: {},
          body: '{}',
          timeout_ms: 1000,
        }),
      });
    expect((await relay({})).status).toBe(401);
    expect((await relay({ [RELAY_CREDENTIAL_HEADER]: 'guessed' })).status).toBe(401);
    expect((await relay({ authorization: `Bearer ${q.key}` })).status).toBe(401);
  });
});
