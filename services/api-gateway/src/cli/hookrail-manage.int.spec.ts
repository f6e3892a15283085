import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { runCli } from '@hookrail/cli';
import { GatewayHarness } from '../testing/gateway-harness';

jest.setTimeout(120_000);

const root = path.resolve(__dirname, '../../../..');
const BIN = path.join(root, 'apps/cli/bin/hookrail.mjs');

interface Ran {
  code: number;
  out: string;
  err: string;
}
interface Change {
  section: string;
  name: string;
  action: string;
  uid: string | null;
  fields: string[];
}

/**
 * The resource commands (endpoints, subscriptions, sources, event-types, portal-links) and
 * `hookrail apply` against the real gateway: what they change is read back through the API, and
 * the bad command lines, files and refusals end with their exit codes and one clear message.
 */
describe('hookrail resource commands and apply', () => {
  const h = new GatewayHarness();
  let p: { id: string; key: string };
  let env: NodeJS.ProcessEnv;
  let dir: string;

  async function cli(...argv: string[]): Promise<Ran> {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l) }, env);
    return { code, out: out.join('\n'), err: err.join('\n') };
  }
  async function cliJson<T>(...argv: string[]): Promise<T> {
    const r = await cli(...argv, '--json');
    expect(r).toMatchObject({ code: 0, err: '' });
    return JSON.parse(r.out) as T;
  }
  /** The bin as a process, the way `npx hookrail` runs it (the bundle). */
  async function bin(...args: string[]): Promise<Ran> {
    try {
      const { stdout, stderr } = await promisify(execFile)(process.execPath, [BIN, ...args], {
        env,
        timeout: 60_000,
      });
      return { code: 0, out: stdout, err: stderr };
    } catch (e) {
      const x = e as { code: number; stdout: string; stderr: string };
      return { code: x.code, out: x.stdout, err: x.stderr };
    }
  }
  const api = async (pathInProject: string) =>
    (await h.call('GET', `/v1/projects/${p.id}${pathInProject}`, { key: p.key })).body.data;
  const file = (name: string, text: string) => {
    const f = path.join(dir, name);
    writeFileSync(f, text);
    return f;
  };

  beforeAll(async () => {
    await h.start();
    p = await h.createProject();
    dir = mkdtempSync(path.join(tmpdir(), 'hookrail-manage-'));
    env = {
      PATH: process.env.PATH,
      XDG_CONFIG_HOME: dir,
      HOOKRAIL_URL: h.gateway.url,
      HOOKRAIL_PROJECT_ID: p.id,
      HOOKRAIL_API_KEY: p.key,
    };
  });
  afterAll(async () => {
    await h.stop();
  });

  it('endpoints, subscriptions, sources, event types and portal links: list, show, create, update, delete', async () => {
    const endpoint = await cliJson<{ uid: string; name: string; http_timeout: number }>(
      ...['endpoints', 'create', '--name', 'billing', '--url', 'https://billing.example.com/hooks'],
      ...['--http-timeout', '10'],
    );
    expect(endpoint).toMatchObject({ name: 'billing', http_timeout: 10 });
    const listed = await cli('endpoints', 'list');
    expect(listed.code).toBe(0);
    expect(listed.out).toMatch(/^ID\s+NAME\s+TYPE\s+STATUS\s+URL\s+OWNER/);
    expect(listed.out).toMatch(new RegExp(`${endpoint.uid}\\s+billing\\s+http\\s+active\\s+https://billing`));
    expect((await cli('endpoints', 'list', '-q')).out).toBe(endpoint.uid);
    const shown = await cli('endpoints', 'show', endpoint.uid);
    expect(shown.out).toContain(`Endpoint ${endpoint.uid}`);
    expect(shown.out).toContain('  url: https://billing.example.com/hooks');
    const updated = await cli('endpoints', 'update', endpoint.uid, '--data', '{"http_timeout":20}');
    expect(updated).toMatchObject({ code: 0, out: `Endpoint ${endpoint.uid} updated` });
    expect(await api(`/endpoints/${endpoint.uid}`)).toMatchObject({ http_timeout: 20 });

    const source = (await cli('sources', 'create', '--name', 'stripe', '--type', 'http', '-q')).out;
    const eventType = await cliJson<{ uid: string }>(
      ...['event-types', 'create', '--name', 'invoice.paid', '--category', 'billing'],
    );
    expect((await cli('event-types', 'list')).out).toMatch(/invoice\.paid\s+billing/);
    const subscription = await cliJson<{ uid: string }>(
      ...['subscriptions', 'create', '--name', 'invoices', '--endpoint', endpoint.uid],
      ...['--source', source, '--event-types', 'invoice.*,order.paid'],
    );
    expect(await api(`/subscriptions/${subscription.uid}`)).toMatchObject({
      endpoint_metadata: { uid: endpoint.uid },
      source_metadata: { uid: source },
      filter_config: { event_types: ['invoice.*', 'order.paid'] },
    });
    expect((await cli('subscriptions', 'list')).out).toMatch(
      /invoices\s+billing\s+stripe\s+invoice\.\*, order\.paid/,
    );
    const link = await cliJson<{ uid: string; endpoints: string[] }>(
      ...['portal-links', 'create', '--name', 'acme', '--endpoint', endpoint.uid],
    );
    expect(link.endpoints).toEqual([endpoint.uid]);
    expect(await cli('portal-links', 'delete', link.uid)).toMatchObject({
      code: 0,
      out: `Portal link ${link.uid} revoked`,
    });

    expect(await cli('subscriptions', 'delete', subscription.uid)).toMatchObject({ code: 0 });
    expect(await cli('event-types', 'delete', eventType.uid)).toMatchObject({ code: 0 });
    expect(await cli('sources', 'delete', source)).toMatchObject({ code: 0 });
    expect(await cliJson('endpoints', 'delete', endpoint.uid)).toEqual({ uid: endpoint.uid, deleted: true });
    // the refusal's message once (the gateway also sends it as a field-less error)
    expect(await cli('endpoints', 'show', endpoint.uid)).toEqual({
      code: 1,
      out: '',
      err: 'hookrail: 404: endpoint not found',
    });
  });

  it('refuses a wrong command line (exit 2) before sending, and passes a 400 on with its fields (exit 1)', async () => {
    for (const argv of [
      ['endpoints', 'create'],
      ['endpoints', 'show'],
      ['endpoints', 'frobnicate'],
      ['endpoints', 'create', '--name', 'x', '--http-timeout', 'soon'],
      ['endpoints', 'create', '--data', '{"name":'],
      ['endpoints', 'create', '--data', '["x"]'],
      ['sources', 'create', '--name', 's', '--type', 'carrier-pigeon'],
      ['subscriptions', 'update', 'x', '--event-types', ' , '],
    ])
      expect([argv.join(' '), (await cli(...argv)).code]).toEqual([argv.join(' '), 2]);
    expect((await cli('endpoints', 'create')).err).toBe(
      'hookrail: the endpoint: give --data <json>, --file <path> or --name, --url, --type, --description, --owner-id, --http-timeout',
    );
    expect(await api('/endpoints')).toMatchObject({ content: [] });

    const refused = await cli(
      'endpoints',
      'create',
      '--data',
      '{"name":"x","url":"https://x.example.com","rate_limit":-1,"http_timeout":99}',
    );
    expect(refused.code).toBe(1);
    const [line, ...rest] = refused.err.split('\n');
    expect(rest).toEqual([]);
    expect(line).toMatch(
      /^hookrail: 400: invalid request body: (rate_limit|http_timeout) .+ \((rate_limit|http_timeout): .+\)$/,
    );

    const saved = env;
    try {
      env = { ...saved, HOOKRAIL_API_KEY: 'hr_wrong.key' };
      expect((await cli('endpoints', 'list')).code).toBe(3);
      env = { ...saved, HOOKRAIL_URL: 'http://127.0.0.1:1' };
      expect((await cli('sources', 'list')).code).toBe(4);
    } finally {
      env = saved;
    }
  });

  it('apply: the dry run plans, the run creates by name and says so, a second run changes nothing, a change updates only its fields', async () => {
    const v1 = file(
      'hookrail.yaml',
      `
event_types:
  - name: order.created
    description: An order was placed
    category: orders
sources:
  - name: shop
    type: http
endpoints:
  - name: orders-service
    url: https://orders.example.com/hooks
    http_timeout: 15
subscriptions:
  - name: orders
    endpoint: orders-service
    source: shop
    filter_config:
      event_types: [order.created]
    retry_config: { type: linear, duration: 30s, retry_count: 3 }
`,
    );
    const planned = await bin('apply', '-f', v1, '--dry-run');
    expect(planned).toMatchObject({ code: 0, err: '' });
    expect(planned.out.trim().split('\n')).toEqual([
      'create     event type order.created',
      'create     source shop',
      'create     endpoint orders-service',
      'create     subscription orders',
      'Dry run: 4 to create; nothing was changed.',
    ]);
    expect(await api('/endpoints')).toMatchObject({ content: [] });

    const applied = await cli('apply', '-f', v1);
    expect(applied.code).toBe(0);
    expect(applied.out).toMatch(/^created {4}event type order\.created \(\S+\)\ncreated {4}source shop/);
    expect(applied.out.split('\n').at(-1)).toBe('4 created.');
    const [endpoint] = (await api('/endpoints')).content;
    const [subscription] = (await api('/subscriptions')).content;
    expect(subscription).toMatchObject({
      name: 'orders',
      endpoint_metadata: { uid: endpoint.uid, name: 'orders-service' },
      source_metadata: { name: 'shop' },
      retry_config: { type: 'linear', duration: 30, retry_count: 3 },
    });

    const again = await cliJson<{ dry_run: boolean; changes: Change[] }>('apply', '-f', v1);
    expect(again.dry_run).toBe(false);
    expect(again.changes.map((c) => c.action)).toEqual(['unchanged', 'unchanged', 'unchanged', 'unchanged']);

    const v2 = file(
      'v2.yaml',
      `
endpoints:
  - name: orders-service
    url: https://orders-v2.example.com/hooks
    http_timeout: 15
subscriptions:
  - name: orders
    endpoint: orders-service
    filter_config:
      event_types: [order.created, order.paid]
`,
    );
    const changed = await cliJson<{ changes: Change[] }>('apply', '-f', v2);
    expect(changed.changes).toEqual([
      { section: 'endpoints', name: 'orders-service', action: 'update', uid: endpoint.uid, fields: ['url'] },
      {
        section: 'subscriptions',
        name: 'orders',
        action: 'update',
        uid: subscription.uid,
        fields: ['filter_config'],
      },
    ]);
    expect(await api(`/endpoints/${endpoint.uid}`)).toMatchObject({
      url: 'https://orders-v2.example.com/hooks',
    });
    // not pruned without --prune: the event type and the source the file omits are still there
    expect((await api('/event-types')).map((t: { name: string }) => t.name)).toEqual(['order.created']);

    const pruned = await cli('apply', '-f', file('prune.yaml', 'event_types: []\nsources: []\n'), '--prune');
    expect(pruned.out.split('\n')).toEqual([
      expect.stringMatching(/^deleted {4}source shop \(\S+\)$/),
      expect.stringMatching(/^deleted {4}event type order\.created \(\S+\)$/),
      '2 deleted.',
    ]);
    expect(await api('/event-types')).toEqual([]);
    expect((await api('/endpoints')).content).toHaveLength(1);
  });

  it('apply refuses a bad file before calling anything (exit 2, naming the place), and stops at a 400 saying what was done', async () => {
    const before = (await api('/endpoints')).content.length;
    const badYaml = await bin('apply', '-f', file('bad.yaml', 'endpoints:\n  - name: a\n   url: x\n'));
    expect(badYaml.code).toBe(2);
    expect(badYaml.err).toMatch(/^hookrail: \S+bad\.yaml is not valid YAML:\n {2}.* at line 3, column \d+/);

    const unknownField = await cli(
      'apply',
      '-f',
      file(
        'typo.yaml',
        'endpoints:\n  - name: a\n    url: https://a.example.com\n  - name: b\n    uri: https://b.example.com\n',
      ),
    );
    expect(unknownField.code).toBe(2);
    expect(unknownField.err).toContain('  endpoints[1].uri: unknown field (known: name, type, url,');
    expect(unknownField.err).toContain('  endpoints[1].url: is required');

    const unknownName = await cli(
      'apply',
      '-f',
      file(
        'names.yaml',
        'endpoints:\n  - name: fresh\n    url: https://fresh.example.com\nsubscriptions:\n  - name: s\n    endpoint: nowhere\n',
      ),
    );
    expect(unknownName).toMatchObject({
      code: 2,
      err: 'hookrail: the file does not fit the project:\n  subscriptions[0].endpoint: no endpoint named "nowhere" in the file or the project',
    });
    expect((await api('/endpoints')).content).toHaveLength(before);

    expect((await cli('apply')).code).toBe(2);
    expect((await cli('apply', '-f', path.join(dir, 'missing.yaml'))).err).toContain('cannot read');

    // the file is right, the gateway refuses the second item: the first stays done and is reported
    const refused = await cli(
      'apply',
      '-f',
      file('refused.yaml', 'event_types:\n  - name: good.type\n  - name: "bad type!"\n'),
    );
    expect(refused.code).toBe(1);
    expect(refused.out).toMatch(/^created {4}event type good\.type \(\S+\)$/);
    expect(refused.err).toMatch(/^hookrail: could not create event type bad type!: 400: .*name/);
    expect(refused.err.split('\n')).toHaveLength(1);
  });
});
