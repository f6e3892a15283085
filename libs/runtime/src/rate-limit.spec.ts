import express from 'express';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { credentialKey, rateLimiter } from './rate-limit';

describe('rateLimiter', () => {
  let server: Server;
  let base: string;

  /** Serves `GET /<client>/<project>` behind a limit of 3 per client and 5 per project. */
  beforeAll(async () => {
    const app = express();
    app.use(
      rateLimiter(
        { name: 'client', limit: 3, windowMs: 60_000, key: (req) => req.path.split('/')[1] || null },
        { name: 'project', limit: 5, windowMs: 60_000, key: (req) => req.path.split('/')[2] ?? null },
        { name: 'switched off', limit: 0, windowMs: 60_000, key: () => 'everyone' },
      ),
    );
    app.use((_req, res) => void res.json({ ok: true }));
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const get = async (path: string) => {
    const res = await fetch(`${base}${path}`);
    const h = (name: string) => res.headers.get(name);
    return {
      status: res.status,
      limit: h('ratelimit-limit'),
      remaining: h('ratelimit-remaining'),
      policy: h('ratelimit-policy'),
      reset: Number(h('ratelimit-reset')),
      retryAfter: h('retry-after'),
      body: (await res.json()) as { status?: boolean; message?: string },
    };
  };

  it("sends one set of headers: the rule's with the fewest requests left", async () => {
    // Client a: 3 per window; project p1: 5. The client's limit is met first, so it is the one sent.
    const first = await get('/a/p1');
    expect(first).toMatchObject({ status: 200, limit: '3', remaining: '2', policy: '3;w=60' });
    expect(first.reset).toBeGreaterThan(0);
    expect(first.reset).toBeLessThanOrEqual(60);
    // Other clients on the same project: each has 2 left, the project one fewer each time; on a
    // tie the first rule's are sent.
    expect(await get('/b/p1')).toMatchObject({ status: 200, limit: '3', remaining: '2' });
    expect(await get('/c/p1')).toMatchObject({ status: 200, limit: '3', remaining: '2' });
    expect(await get('/d/p1')).toMatchObject({ status: 200, limit: '5', remaining: '1', policy: '5;w=60' });
  });

  it('answers 429 naming the first rule exceeded, with Retry-After and no requests left', async () => {
    for (let i = 0; i < 3; i++) expect((await get('/k/p2')).status).toBe(200);
    const limited = await get('/k/p2');
    expect(limited).toMatchObject({ status: 429, limit: '3', remaining: '0' });
    expect(Number(limited.retryAfter)).toBeGreaterThan(0);
    expect(Number(limited.retryAfter)).toBeLessThanOrEqual(60);
    expect(limited.body).toMatchObject({
      status: false,
      message: 'rate limit exceeded for this client: at most 3 requests per 60 s',
    });
    // Refused by the client rule, it did not count against the project: p2 has 2 left.
    expect(await get('/l/p2')).toMatchObject({ status: 200, limit: '5', remaining: '1' });
    expect(await get('/m/p2')).toMatchObject({ status: 200, remaining: '0' });
    const project = await get('/n/p2');
    expect(project).toMatchObject({ status: 429, limit: '5', remaining: '0' });
    expect(project.body.message).toBe('rate limit exceeded for this project: at most 5 requests per 60 s');
  });

  it('skips a rule whose key is null and sends no headers when none applies', async () => {
    // No project in the path: only the client rule counts.
    expect(await get('/h')).toMatchObject({ status: 200, limit: '3', remaining: '2' });
    const none = await get('/');
    expect(none).toMatchObject({ status: 200, limit: null, remaining: null, policy: null });
  });

  it('passes every request on when every rule is off', async () => {
    const off = rateLimiter({ name: 'x', limit: 0, windowMs: 1000, key: () => 'k' });
    const next = jest.fn();
    await off({} as never, {} as never, next);
    expect(next).toHaveBeenCalledTimes(1);
  });
});

describe('credentialKey', () => {
  it("is an API key's id, never its secret", () => {
    expect(credentialKey('Bearer hr_01JD8ZQ7X2Y3.secret-part')).toBe('hr_01JD8ZQ7X2Y3');
    expect(credentialKey('bearer hr_admin.test-admin-key')).toBe('hr_admin');
  });
  it('is a digest of any other token, from the header or the query', () => {
    const a = credentialKey('Bearer portal-token-1');
    expect(a).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(a).not.toContain('portal');
    expect(credentialKey(undefined, 'portal-token-1')).toBe(a);
    expect(credentialKey('Bearer portal-token-2')).not.toBe(a);
  });
  it('is null without a credential (the rule does not apply)', () => {
    expect(credentialKey(undefined)).toBeNull();
    expect(credentialKey('Basic abc')).toBeNull();
    expect(credentialKey(undefined, '')).toBeNull();
  });
});
