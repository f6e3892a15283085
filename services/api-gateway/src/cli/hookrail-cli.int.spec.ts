import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { managementOperations as api, type ResponseOf } from '@hookrail/api-contract';
import { runCli } from '@hookrail/cli';
import type { RunningService } from '@hookrail/runtime';
import { startReceiver, startTestService, testConfig, waitFor, type Receiver } from '@hookrail/testkit';
import { definition as dispatcher } from '../../../dispatcher/src/service';
import { GatewayHarness } from '../testing/gateway-harness';

jest.setTimeout(120_000);

const root = path.resolve(__dirname, '../../../..');
const BIN = path.join(root, 'apps/cli/bin/hookrail.mjs');
const run = promisify(execFile);

type Accepted = ResponseOf<typeof api.createEvent>;
type Delivery = ResponseOf<typeof api.getEventDelivery>;
type EventShown = { event: ResponseOf<typeof api.getEvent>; deliveries: Delivery[] };

interface Ran {
  code: number;
  out: string;
  err: string;
}

/**
 * The `hookrail` CLI against the real gateway, a real dispatcher and a real receiver (one path
 * answers 200, `/fail` answers 500; no retry scheduler runs, so a failed delivery waits in Retry).
 * Most commands run in-process through runCli with a fresh config folder; the bin itself runs as a
 * process for its help, exit codes and login.
 */
describe('hookrail CLI', () => {
  const h = new GatewayHarness();
  let worker: RunningService | undefined;
  let receiver: Receiver;
  let p: { id: string; key: string };
  let okEndpoint: string;
  let failEndpoint: string;
  let env: NodeJS.ProcessEnv;

  /** One command line in-process; JSON output parsed when asked for. */
  async function cli(...argv: string[]): Promise<Ran> {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l) }, env);
    return { code, out: out.join('\n'), err: err.join('\n') };
  }
  async function cliJson<T = Accepted>(...argv: string[]): Promise<T> {
    const r = await cli(...argv, '--json');
    expect(r).toMatchObject({ code: 0, err: '' });
    return JSON.parse(r.out) as T;
  }
  /** The bin as a process (the way `npx hookrail` runs it). */
  async function bin(args: string[], extraEnv: Record<string, string> = {}): Promise<Ran> {
    try {
      const { stdout, stderr } = await run(process.execPath, [BIN, ...args], {
        env: { ...env, ...extraEnv },
        timeout: 60_000,
      });
      return { code: 0, out: stdout, err: stderr };
    } catch (e) {
      const x = e as { code: number; stdout: string; stderr: string };
      return { code: x.code, out: x.stdout, err: x.stderr };
    }
  }
  const freshConfig = () => ({
    PATH: process.env.PATH,
    XDG_CONFIG_HOME: mkdtempSync(path.join(tmpdir(), 'hookrail-cli-')),
  });
  const deliveriesOf = async (endpoint: string) =>
    (await cliJson<{ content: Delivery[] }>('deliveries', 'list', '--endpoint', endpoint)).content;

  beforeAll(async () => {
    await h.start();
    worker = await startTestService(
      dispatcher(testConfig('dispatcher', { HOOKRAIL_KAFKA_TOPIC_PREFIX: h.prefix })),
    );
    receiver = await startReceiver({
      respond: (req) =>
        req.path.startsWith('/fail') ? { status: 500, body: 'down' } : { status: 200, body: 'ok' },
    });
    p = await h.createProject();
    const endpoint = async (name: string, url: string) => {
      const res = await h.call('POST', `/v1/projects/${p.id}/endpoints`, { key: p.key, body: { name, url } });
      expect(res.status).toBe(201);
      return res.body.data.uid as string;
    };
    okEndpoint = await endpoint('laptop', `${receiver.url}/hooks`);
    failEndpoint = await endpoint('broken', `${receiver.url}/fail`);
    env = freshConfig();
  });
  afterAll(async () => {
    await receiver?.close();
    await worker?.stop();
    await h.stop();
  });

  it('the bin prints its help, and exits 2 on a wrong command line and 3 when not logged in', async () => {
    const help = await bin(['--help']);
    expect(help.code).toBe(0);
    for (const command of ['login', 'send', 'events', 'deliveries', 'retry', 'replay', 'tail', 'listen'])
      expect(help.out).toContain(command);
    expect(help.out).toContain('Exit codes');
    const sendHelp = await bin(['send', '--help']);
    expect(sendHelp.out).toMatch(/--endpoint <id>[\s\S]*--owner <id>[\s\S]*--broadcast/);
    const listenHelp = await bin(['listen', '--help']);
    expect(listenHelp.out).toMatch(
      /listen \[options\] <local-url>[\s\S]*--events <types>[\s\S]*--name <name>[\s\S]*--count <n>[\s\S]*--json[\s\S]*Exit codes: 0 stopped/,
    );

    expect((await bin(['frobnicate'])).code).toBe(2);
    expect((await bin(['deliveries', 'list', '--limit', 'many'])).code).toBe(2);
    expect((await bin(['deliveries', 'list', '--status', 'Sideways'])).code).toBe(2);
    const notIn = await bin(['events', 'list']);
    expect(notIn.code).toBe(3);
    expect(notIn.err).toContain('not logged in');
  });

  it('login discovers the project of the key and stores the login readable by its owner only; a bad key or URL stores nothing', async () => {
    const bad = await bin(['login', '--url', h.gateway.url, '--api-key', 'hr_wrong.key']);
    expect(bad.code).toBe(3);
    expect(() => statSync(path.join(env.XDG_CONFIG_HOME!, 'hookrail/config.json'))).toThrow();
    expect((await bin(['login', '--url', 'ftp://x', '--api-key', p.key])).code).toBe(2);
    expect((await bin(['login', '--url', 'not a url', '--api-key', p.key])).code).toBe(2);

    const ok = await bin(['login', '--url', `${h.gateway.url}/`, '--api-key', p.key, '--json']);
    expect(ok.code).toBe(0);
    const file = path.join(env.XDG_CONFIG_HOME!, 'hookrail/config.json');
    expect(JSON.parse(ok.out)).toMatchObject({ url: h.gateway.url, project_id: p.id, config_file: file });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      url: h.gateway.url,
      project_id: p.id,
      api_key: p.key,
    });
  });

  it('sends an event, lists and shows it and its delivery with the attempt’s status and latency', async () => {
    const sent = await cliJson(
      'send',
      'invoice.paid',
      '--endpoint',
      okEndpoint,
      '--data',
      '{"invoice":"inv_1"}',
    );
    expect(sent).toMatchObject({ event_type: 'invoice.paid', data: { invoice: 'inv_1' } });
    await waitFor('the delivery', async () =>
      (await deliveriesOf(okEndpoint)).some((d) => d.status === 'Success'),
    );
    expect(receiver.requests.some((r) => r.body.includes('inv_1'))).toBe(true);

    const listed = await cli('events', 'list', '--type', 'invoice.paid');
    expect(listed.code).toBe(0);
    expect(listed.out).toMatch(/^CREATED\s+ID\s+TYPE\s+STATUS\s+ENDPOINTS/);
    expect(listed.out).toContain(sent.uid);
    expect(listed.out).toContain('laptop');
    const shown = await cliJson<EventShown>('events', 'show', sent.uid);
    expect(shown.event.uid).toBe(sent.uid);
    expect(shown.deliveries).toHaveLength(1);

    const [delivery] = await deliveriesOf(okEndpoint);
    const detail = await cli('deliveries', 'show', delivery.uid);
    expect(detail.code).toBe(0);
    expect(detail.out).toContain(`Delivery ${delivery.uid}  invoice.paid  Success  to laptop`);
    expect(detail.out).toMatch(/200\s+\d+ ms\s+ok/);
    expect((await cli('events', 'list', '--type', 'no.such.type')).out).toBe('No events match.');
  });

  it('retries: resend refuses a delivered one (409, exit 1), --force resends it, --now sends one waiting in Retry', async () => {
    const sent = await cliJson('send', 'invoice.failed', '--endpoint', failEndpoint, '--data', '{"n":1}');
    await waitFor('the delivery', async () =>
      (await deliveriesOf(failEndpoint)).some((d) => d.event_id === sent.uid && d.status === 'Retry'),
    );
    const [waiting] = (await deliveriesOf(failEndpoint)).filter((d) => d.event_id === sent.uid);
    const now = await cliJson<Delivery>('retry', waiting.uid, '--now');
    expect(now.uid).toBe(waiting.uid);
    await waitFor(
      'the delivery',
      async () => (await deliveriesOf(failEndpoint)).find((d) => d.uid === waiting.uid)?.attempts_made === 2,
    );

    const [delivered] = (await deliveriesOf(okEndpoint)).filter((d) => d.status === 'Success');
    const refused = await cli('retry', delivered.uid);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/^hookrail: 409: /);
    const forced = await cli('retry', delivered.uid, '--force');
    expect(forced).toMatchObject({ code: 0, out: `Delivery ${delivered.uid} sent again (Scheduled)` });
    await waitFor(
      'the delivery',
      async () => (await deliveriesOf(okEndpoint)).find((d) => d.uid === delivered.uid)?.attempts_made === 2,
    );
    expect((await cli('retry', delivered.uid, '--now', '--force')).code).toBe(2);
    expect((await cli('retry', 'no-such-delivery')).code).toBe(1);
  });

  it('replays an event into a new delivery', async () => {
    const sent = await cliJson('send', 'order.created', '--endpoint', okEndpoint, '--data', '{"order":7}');
    await waitFor('the delivery', async () =>
      (await deliveriesOf(okEndpoint)).some((d) => d.event_id === sent.uid && d.status === 'Success'),
    );
    const replayed = await cli('replay', sent.uid);
    expect(replayed).toMatchObject({ code: 0, out: `Event ${sent.uid} replayed: 1 new deliveries` });
    await waitFor(
      'the delivery',
      async () => (await deliveriesOf(okEndpoint)).filter((d) => d.event_id === sent.uid).length === 2,
    );
  });

  it('tails deliveries: each new one once it matches, with its latency; the newest first when started', async () => {
    const tail = cli(
      'tail',
      ...['--endpoint', okEndpoint, '--type', 'tail.tick', '--status', 'Success'],
      ...['--interval', '1', '--count', '1', '--json'],
    );
    await new Promise((r) => setTimeout(r, 1_500));
    const sent = await cliJson('send', 'tail.tick', '--endpoint', okEndpoint, '--data', '{"tick":1}');
    const followed = await tail;
    expect(followed.code).toBe(0);
    const line = JSON.parse(followed.out) as { event_id: string; status: string; latency_ms: number | null };
    expect(line).toMatchObject({ event_id: sent.uid, status: 'Success', latency_ms: expect.any(Number) });

    // Started afterwards: the backlog (the newest matching deliveries) first, in human form.
    const backlog = await cli('tail', '--endpoint', okEndpoint, '--type', 'tail.tick', '--count', '1');
    expect(backlog.code).toBe(0);
    expect(backlog.out).toMatch(/Success\s+tail\.tick\s+→ laptop\s+attempts 1\s+http 200\s+\d+ ms/);
  });

  it("runs docs/cli.md's walkthrough as pasted (only the gateway's address swapped)", async () => {
    const doc = readFileSync(path.join(root, 'docs/cli.md'), 'utf8');
    const block = /```bash\n([\s\S]*?)\n```/.exec(doc)![1];
    const script = block.replaceAll('http://localhost:8080', h.gateway.url);
    expect(script).not.toContain('localhost:8080');
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', script], {
      cwd: root,
      timeout: 90_000,
      env: {
        ...freshConfig(),
        PATH: `${path.dirname(process.execPath)}:${process.env.PATH}`,
        PROJECT_KEY: p.key,
        ENDPOINT_ID: okEndpoint,
      },
    });
    expect(stdout).toMatch(/Logged in to .*, project /);
    expect(stdout).toMatch(/Success\s+invoice\.paid\s+→ laptop/);
    expect(stdout).toMatch(/Event \S+ +invoice\.paid +(Success|Pending)/);
    expect(stdout).toMatch(/200\s+\d+ ms\s+ok/);
    expect(stdout).toMatch(/Delivery \S+ sent again \(Scheduled\)/);
    expect(stdout).toMatch(/Event \S+ replayed: 1 new deliveries/);
  });

  it('send names what is wrong with its command line (exit 2) and passes the API’s refusals on (exit 1)', async () => {
    const noTarget = await cli('send', 'x', '--data', '{}');
    expect(noTarget).toMatchObject({
      code: 2,
      err: 'hookrail: the target: give exactly one of --endpoint, --owner, --broadcast',
    });
    expect((await cli('send', 'x', '--endpoint', okEndpoint, '--broadcast', '--data', '{}')).code).toBe(2);
    expect((await cli('send', 'x', '--endpoint', okEndpoint)).err).toContain(
      'give --data <json> or --file <path>',
    );
    const missing = await cli('send', 'x', '--endpoint', okEndpoint, '--file', '/nonexistent/event.json');
    expect(missing).toMatchObject({ code: 2 });
    expect(missing.err).toContain('cannot read /nonexistent/event.json');
    const file = path.join(env.XDG_CONFIG_HOME!, 'event.json');
    writeFileSync(file, '{"broken": ');
    expect((await cli('send', 'x', '--endpoint', okEndpoint, '--file', file)).err).toContain(
      `${file} is not JSON`,
    );
    const unknown = await cli('send', 'x', '--endpoint', 'no-such-endpoint', '--data', '{}');
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/^hookrail: (400|404): /);
    writeFileSync(file, '{"from":"file"}');
    const fromFile = await cliJson('send', 'file.event', '--endpoint', okEndpoint, '--file', file);
    expect(fromFile.data).toEqual({ from: 'file' });
  });

  it('exits 4 when the gateway cannot be reached, and takes its login from the environment', async () => {
    const saved = env;
    env = {
      ...freshConfig(),
      HOOKRAIL_URL: 'http://127.0.0.1:1',
      HOOKRAIL_PROJECT_ID: p.id,
      HOOKRAIL_API_KEY: p.key,
    };
    try {
      const r = await cli('events', 'list');
      expect(r.code).toBe(4);
      expect(r.err).toContain('cannot reach the gateway at http://127.0.0.1:1');
      env = { ...env, HOOKRAIL_URL: h.gateway.url };
      expect((await cli('events', 'list')).code).toBe(0);
      env = { ...env, HOOKRAIL_API_KEY: 'hr_wrong.key' };
      expect((await cli('events', 'list')).code).toBe(3);
    } finally {
      env = saved;
    }
  });
});
