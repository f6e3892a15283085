import { request } from 'node:http';
import { ADMIN_KEY, GatewayHarness } from '../testing/gateway-harness';

interface Answer {
  status: number;
  retryAfter: string | undefined;
  message: string;
}

/** A console sign-in to `h`'s gateway from the loopback address `from`. */
function signInTo(
  h: GatewayHarness,
  key: string,
  from: string,
  headers: Record<string, string>,
): Promise<Answer> {
  const { hostname, port } = new URL(h.gateway.url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: hostname,
        port,
        path: '/console/session',
        method: 'POST',
        localAddress: from,
        headers: { 'content-type': 'application/json', ...headers },
      },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            retryAfter: res.headers['retry-after'],
            message: (JSON.parse(body) as { message: string }).message,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ key }));
  });
}

/**
 * Console sign-in throttling on the real gateway: 10 failures per client IP or per key id in 15
 * minutes, then 429 with Retry-After. Each client IP is a different loopback source address
 * (127.0.0.x), so the two limits are seen apart.
 */
describe('console sign-in throttling (real gateway)', () => {
  const h = new GatewayHarness();
  beforeAll(() => h.start());
  afterAll(() => h.stop());

  const signIn = (key: string, from: string) => signInTo(h, key, from, {});

  it('refuses a client IP after 10 failed sign-ins, even with the right key, and no other IP', async () => {
    for (let i = 0; i < 10; i++) expect((await signIn(`wrong-key-${i}`, '127.0.0.2')).status).toBe(401);
    const refused = await signIn(ADMIN_KEY, '127.0.0.2');
    expect(refused.status).toBe(429);
    expect(refused.message).toMatch(/too many failed sign-ins: try again in \d+ s/);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(15 * 60);
    expect((await signIn(ADMIN_KEY, '127.0.0.3')).status).toBe(201);
  });

  it('refuses a key id after 10 failures from any IPs; other keys and the API are not affected', async () => {
    const mine = await h.createProject();
    const other = await h.createProject();
    const [keyPart] = mine.key.split('.');
    for (let i = 0; i < 10; i++)
      expect((await signIn(`${keyPart}.wrong-secret-0000000${i}`, `127.0.1.${10 + i}`)).status).toBe(401);
    const refused = await signIn(mine.key, '127.0.1.30');
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect((await signIn(other.key, '127.0.1.30')).status).toBe(201);
    // Only the console's sign-in is throttled: the key still works on the API.
    const api = await h.call('GET', `/v1/projects/${mine.id}`, { key: mine.key });
    expect(api.status).toBe(200);
  });

  it('does not count a sign-in without a key as a failure', async () => {
    for (let i = 0; i < 12; i++) expect((await signIn('', '127.0.2.1')).status).toBe(400);
    expect((await signIn(ADMIN_KEY, '127.0.2.1')).status).toBe(201);
  });
});

/**
 * Behind an Ingress every sign-in comes from the proxy's address: the client is the one in
 * X-Forwarded-For, believed only from HOOKRAIL_TRUSTED_PROXIES (here 127.0.3.1, the "proxy").
 */
describe('console sign-in throttling behind a proxy (real gateway)', () => {
  const h = new GatewayHarness();
  beforeAll(() => h.start({ HOOKRAIL_TRUSTED_PROXIES: '127.0.3.1' }));
  afterAll(() => h.stop());
  const viaProxy = (key: string, client: string) =>
    signInTo(h, key, '127.0.3.1', { 'x-forwarded-for': client });

  it('counts failures per client named by a trusted proxy, so one client cannot lock out the rest', async () => {
    for (let i = 0; i < 10; i++) expect((await viaProxy(`wrong-key-${i}`, '203.0.113.5')).status).toBe(401);
    expect((await viaProxy(ADMIN_KEY, '203.0.113.5')).status).toBe(429);
    expect((await viaProxy(ADMIN_KEY, '203.0.113.6')).status).toBe(201);
  });

  it('ignores X-Forwarded-For from a client that is not a trusted proxy', async () => {
    for (let i = 0; i < 10; i++)
      expect(
        (await signInTo(h, `wrong-key-${i}`, '127.0.3.2', { 'x-forwarded-for': `198.51.100.${i}` })).status,
      ).toBe(401);
    const refused = await signInTo(h, ADMIN_KEY, '127.0.3.2', { 'x-forwarded-for': '198.51.100.99' });
    expect(refused.status).toBe(429);
  });
});
