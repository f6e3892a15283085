import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SIGNATURE_SCHEMES, type SignatureSchemeName } from '@hookrail/signing';
import {
  callApi,
  sparePort,
  startReceiver,
  waitFor,
  type Receiver,
  type RecordedRequest,
} from '@hookrail/testkit';
import { startDeliveryStack, type DeliveryStack } from '../../tools/support/delivery-stack';

jest.setTimeout(180_000);

const here = __dirname;
const doc = readFileSync(path.join(here, '../verifying-webhooks.md'), 'utf8');

/** One verification the snippets must agree on. */
interface Case {
  scheme: SignatureSchemeName;
  header: string;
  algorithm: 'sha256' | 'sha512';
  encoding: 'hex' | 'base64';
  version: number;
  secrets: string[];
  headers: Record<string, string>;
  body_base64: string;
  now: number;
}

type Verifier = { name: string; run: (c: Case) => 'valid' | 'invalid' };

/**
 * The docs' verifiers (docs/verify/verify.{js,py,go}) against real deliveries: the gateway's
 * events API and the real dispatcher signing to a real HTTP receiver, for every scheme the
 * dispatcher signs with, before and during a secret rollover. Each snippet must accept every
 * good signature and reject a tampered body, a wrong secret and a stale timestamp.
 */
describe('docs/verifying-webhooks.md verifiers on real deliveries', () => {
  let stack: DeliveryStack;
  let receiver: Receiver;
  let work: string;
  const verifiers: Verifier[] = [];
  const verifiedSchemes = new Set<SignatureSchemeName>();

  const runner =
    (name: string, cmd: string, args: string[]): Verifier['run'] =>
    (c) => {
      const r = spawnSync(cmd, args, { input: JSON.stringify(c), encoding: 'utf8', cwd: work });
      const out = r.stdout.trim();
      if ((r.status === 0 && out === 'valid') || (r.status === 1 && out === 'invalid')) return out;
      throw new Error(`${name} failed (exit ${r.status}): ${r.stdout}\n${r.stderr}`);
    };

  beforeAll(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'hookrail-verify-'));
    // Go builds once; outside any module `go build file.go` needs only the standard library.
    execFileSync('go', ['build', '-o', path.join(work, 'verify-go'), path.join(here, 'verify.go')], {
      cwd: work,
      env: { ...process.env, GO111MODULE: 'on', GOFLAGS: '-mod=mod' },
    });
    verifiers.push(
      { name: 'node', run: runner('node', process.execPath, [path.join(here, 'verify.js'), 'check']) },
      { name: 'python', run: runner('python', 'python3', [path.join(here, 'verify.py'), 'check']) },
      { name: 'go', run: runner('go', path.join(work, 'verify-go'), ['check']) },
    );
    receiver = await startReceiver();
    stack = await startDeliveryStack();
  });
  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
    rmSync(work, { recursive: true, force: true });
  });

  async function project(config: Record<string, unknown>): Promise<string> {
    const p = await callApi<{ uid: string; api_key: { key: string } }>(
      stack.apiUrl,
      stack.adminKey,
      'POST',
      '/v1/projects',
      {
        name: `docs-${Date.now()}`,
        type: 'outgoing',
        config,
      },
    );
    return `${p.uid} ${p.api_key.key}`;
  }

  interface Ep {
    pid: string;
    key: string;
    id: string;
  }

  async function endpoint(projectRef: string, advanced: boolean, url = receiver.url): Promise<Ep> {
    const [pid, key] = projectRef.split(' ');
    const e = await callApi<{ uid: string }>(stack.apiUrl, key, 'POST', `/v1/projects/${pid}/endpoints`, {
      name: advanced ? 'advanced' : 'simple',
      url: `${url}/hooks`,
      advanced_signatures: advanced,
    });
    await callApi(stack.apiUrl, key, 'POST', `/v1/projects/${pid}/subscriptions`, {
      name: `to-${e.uid}`,
      endpoint_id: e.uid,
      filter_config: { event_types: ['*'] },
    });
    return { pid, key, id: e.uid };
  }

  async function secrets(ep: Ep): Promise<string[]> {
    const e = await callApi<{ secrets: { value: string }[] }>(
      stack.apiUrl,
      ep.key,
      'GET',
      `/v1/projects/${ep.pid}/endpoints/${ep.id}`,
    );
    return e.secrets.map((s) => s.value);
  }

  /** Sends an event to the endpoint through the events API and returns the request the receiver got. */
  async function deliver(ep: Ep, data: unknown = { amount: 42, note: 'café ☕' }): Promise<RecordedRequest> {
    const ev = await callApi<{ uid: string }>(stack.apiUrl, ep.key, 'POST', `/v1/projects/${ep.pid}/events`, {
      endpoint_id: ep.id,
      event_type: 'invoice.paid',
      data,
    });
    return waitFor(
      `delivery of ${ev.uid}`,
      () => receiver.requests.find((r) => r.headers['x-hookrail-event-id'] === ev.uid),
      { timeoutMs: 60_000 },
    );
  }

  function caseOf(
    req: RecordedRequest,
    c: Omit<Case, 'headers' | 'body_base64' | 'now' | 'header'> & { header?: string },
  ): Case {
    return {
      header: 'X-Hookrail-Signature',
      ...c,
      headers: req.headers,
      body_base64: req.rawBody.toString('base64'),
      now: req.receivedAt / 1000,
    };
  }

  /** Every snippet accepts the good case and rejects a tampered body, a wrong secret and a stale one. */
  function expectVerified(good: Case, opts: { timestamped: boolean }) {
    const body = Buffer.from(good.body_base64, 'base64');
    const tampered = Buffer.from(body);
    tampered[tampered.length - 2] ^= 1; // one bit of the last value
    const cases: [string, Case, 'valid' | 'invalid'][] = [
      ['good', good, 'valid'],
      ['tampered body', { ...good, body_base64: tampered.toString('base64') }, 'invalid'],
      [
        'extra byte',
        { ...good, body_base64: Buffer.concat([body, Buffer.from('\n')]).toString('base64') },
        'invalid',
      ],
      ['wrong secret', { ...good, secrets: ['not-the-secret'] }, 'invalid'],
    ];
    if (opts.timestamped) {
      cases.push(['ten minutes later', { ...good, now: good.now + 600 }, 'invalid']);
      cases.push(['ten minutes earlier', { ...good, now: good.now - 600 }, 'invalid']);
    }
    verifiedSchemes.add(good.scheme);
    const results = verifiers.flatMap((v) => cases.map(([name, c]) => `${v.name} ${name}: ${v.run(c)}`));
    expect(results).toEqual(
      verifiers.flatMap((v) => cases.map(([name, , want]) => `${v.name} ${name}: ${want}`)),
    );
  }

  it('every header of a delivery is listed in the doc', async () => {
    const p = await project({ signature: { standard_webhooks: true } });
    const ep = await endpoint(p, true);
    const req = await deliver(ep);
    const documented = new Set(
      [...doc.matchAll(/^\| `([A-Za-z0-9-]+)` \|/gm)].map((m) => m[1].toLowerCase()),
    );
    const undocumented = Object.keys(req.headers).filter((h) => !documented.has(h));
    expect(undocumented).toEqual([]);
  });

  it('simple scheme (default SHA-256 hex): HMAC of the raw body with the secret as UTF-8', async () => {
    const ep = await endpoint(await project({}), false);
    const req = await deliver(ep);
    expect(req.headers['x-hookrail-signature']).toMatch(/^[0-9a-f]{64}$/);
    const s = await secrets(ep);
    expectVerified(
      caseOf(req, { scheme: 'simple', algorithm: 'sha256', encoding: 'hex', version: 1, secrets: s }),
      {
        timestamped: false,
      },
    );
  });

  it('simple scheme with a custom header and SHA-512 base64 (the newest configured version)', async () => {
    const p = await project({
      signature: {
        header: 'X-Acme-Signature',
        versions: [
          { hash: 'SHA256', encoding: 'hex' },
          { hash: 'SHA512', encoding: 'base64' },
        ],
      },
    });
    const ep = await endpoint(p, false);
    const req = await deliver(ep);
    expect(req.headers['x-hookrail-signature']).toBeUndefined();
    const s = await secrets(ep);
    expectVerified(
      caseOf(req, {
        scheme: 'simple',
        header: 'X-Acme-Signature',
        algorithm: 'sha512',
        encoding: 'base64',
        version: 2,
        secrets: s,
      }),
      { timestamped: false },
    );
  });

  it('advanced scheme, every version, and Standard Webhooks headers on the same delivery', async () => {
    const p = await project({
      signature: {
        versions: [
          { hash: 'SHA256', encoding: 'hex' },
          { hash: 'SHA512', encoding: 'base64' },
        ],
        standard_webhooks: true,
      },
    });
    const ep = await endpoint(p, true);
    const req = await deliver(ep);
    expect(req.headers['x-hookrail-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64},v2=\S+$/);
    const s = await secrets(ep);
    const common = { secrets: s, header: 'X-Hookrail-Signature' };
    expectVerified(
      caseOf(req, { ...common, scheme: 'advanced', version: 1, algorithm: 'sha256', encoding: 'hex' }),
      {
        timestamped: true,
      },
    );
    expectVerified(
      caseOf(req, { ...common, scheme: 'advanced', version: 2, algorithm: 'sha512', encoding: 'base64' }),
      { timestamped: true },
    );
    expectVerified(
      caseOf(req, {
        ...common,
        scheme: 'standard_webhooks',
        version: 1,
        algorithm: 'sha256',
        encoding: 'base64',
      }),
      {
        timestamped: true,
      },
    );
  });

  it('a rolled secret: advanced and Standard Webhooks carry one signature per secret; simple only the new one', async () => {
    const p = await project({ signature: { standard_webhooks: true } });
    const adv = await endpoint(p, true);
    const simple = await endpoint(p, false);
    const [oldAdv] = await secrets(adv);
    const [oldSimple] = await secrets(simple);
    for (const ep of [adv, simple])
      await callApi(stack.apiUrl, ep.key, 'PUT', `/v1/projects/${ep.pid}/endpoints/${ep.id}/expire_secret`, {
        expiration: 3600,
      });
    const [, newAdv] = await secrets(adv);
    const [, newSimple] = await secrets(simple);
    expect(newAdv).toBeDefined();

    // The dispatcher reads endpoints through a cache: wait until it signs with both secrets.
    let req!: RecordedRequest;
    await waitFor(
      'a delivery signed with both secrets',
      async () => {
        req = await deliver(adv);
        return (req.headers['x-hookrail-signature'].match(/v1=/g) ?? []).length === 2;
      },
      { timeoutMs: 60_000 },
    );
    expect(req.headers['webhook-signature'].split(' ')).toHaveLength(2);
    for (const held of [[oldAdv], [newAdv]]) {
      const base = { header: 'X-Hookrail-Signature', version: 1, secrets: held };
      expectVerified(caseOf(req, { ...base, scheme: 'advanced', algorithm: 'sha256', encoding: 'hex' }), {
        timestamped: true,
      });
      expectVerified(
        caseOf(req, { ...base, scheme: 'standard_webhooks', algorithm: 'sha256', encoding: 'base64' }),
        {
          timestamped: true,
        },
      );
    }

    let sreq!: RecordedRequest;
    const newSig = (r: RecordedRequest) =>
      verifiers[0].run(
        caseOf(r, {
          scheme: 'simple',
          algorithm: 'sha256',
          encoding: 'hex',
          version: 1,
          secrets: [newSimple],
        }),
      ) === 'valid';
    await waitFor(
      'a simple delivery signed with the new secret',
      async () => {
        sreq = await deliver(simple);
        return newSig(sreq);
      },
      { timeoutMs: 60_000 },
    );
    const simpleCase = (held: string[]) =>
      caseOf(sreq, { scheme: 'simple', algorithm: 'sha256', encoding: 'hex', version: 1, secrets: held });
    // A receiver holding both secrets during the overlap verifies; one holding only the old does not.
    expectVerified(simpleCase([oldSimple, newSimple]), { timestamped: false });
    expect(verifiers.map((v) => `${v.name}: ${v.run(simpleCase([oldSimple]))}`)).toEqual(
      verifiers.map((v) => `${v.name}: invalid`),
    );
  });

  // Runs after the scheme tests above: a scheme added to the registry needs its case here.
  it('every scheme of the registry was verified by every snippet', () => {
    expect([...verifiedSchemes].sort()).toEqual(SIGNATURE_SCHEMES.map((s) => s.name).sort());
  });

  it("the doc's example receiver (node verify.js serve) answers 200 to a real delivery and 401 to a forgery", async () => {
    const port = await sparePort();
    const p = await project({});
    const [pid, key] = p.split(' ');
    const e = await callApi<{ uid: string; secrets: { value: string }[] }>(
      stack.apiUrl,
      key,
      'POST',
      `/v1/projects/${pid}/endpoints`,
      { name: 'example', url: `http://127.0.0.1:${port}/hooks` },
    );
    await callApi(stack.apiUrl, key, 'POST', `/v1/projects/${pid}/subscriptions`, {
      name: 'example',
      endpoint_id: e.uid,
      filter_config: { event_types: ['*'] },
    });
    const server = spawn(process.execPath, [path.join(here, 'verify.js'), 'serve', String(port)], {
      env: { ...process.env, HOOKRAIL_SECRET: e.secrets[0].value },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let printed = '';
    server.stdout.on('data', (c: Buffer) => (printed += c.toString()));
    try {
      await waitFor('the example receiver', () =>
        fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: '{}' }).then(
          (r) => r.status === 401,
          () => false,
        ),
      );
      const ev = await callApi<{ uid: string }>(stack.apiUrl, key, 'POST', `/v1/projects/${pid}/events`, {
        endpoint_id: e.uid,
        event_type: 'invoice.paid',
        data: { amount: 7 },
      });
      const delivery = await waitFor(
        'a successful delivery',
        async () => {
          const list = await callApi<{ content: { status: string; uid: string }[] }>(
            stack.apiUrl,
            key,
            'GET',
            `/v1/projects/${pid}/eventdeliveries?event_id=${ev.uid}`,
          );
          return list.content.find(
            (d) => d.status === 'Success' || d.status === 'Failure' || d.status === 'Retry',
          );
        },
        { timeoutMs: 60_000 },
      );
      expect(delivery.status).toBe('Success');
      expect(printed).toContain('invoice.paid {"amount":7}');
    } finally {
      server.kill('SIGTERM');
    }
  });
});
