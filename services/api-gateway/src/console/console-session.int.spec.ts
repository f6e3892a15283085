import { ADMIN_KEY, GatewayHarness } from '../testing/gateway-harness';
import { SESSION_COOKIE, principalClaims, sessionSecret, signSession } from './console-session';

const ENCRYPTION_KEY = 'console-session-test-key';

interface Session {
  cookie: string;
  csrf: string;
}

/** Console sign-in and the session cookie on the management API, against the real gateway. */
describe('console session (real gateway, real store)', () => {
  const h = new GatewayHarness();
  const secret = sessionSecret(ENCRYPTION_KEY, ADMIN_KEY);

  beforeAll(() => h.start({ HOOKRAIL_ENCRYPTION_KEY: ENCRYPTION_KEY }));
  afterAll(() => h.stop());

  const url = (path: string) => `${h.gateway.url}${path}`;
  const signIn = (key: string, headers: Record<string, string> = {}) =>
    fetch(url('/console/session'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ key }),
    });
  async function session(key: string): Promise<Session> {
    const res = await signIn(key);
    expect(res.status).toBe(201);
    const cookie = res.headers.get('set-cookie')!.split(';')[0];
    const body = (await res.json()) as { data: { csrf_token: string } };
    return { cookie, csrf: body.data.csrf_token };
  }
  const api = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
    fetch(url(`/api/v1${path}`), {
      method,
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const message = async (res: Response) => ((await res.json()) as { message: string }).message;

  it('exchanges the admin key for an httpOnly, SameSite=Strict cookie that opens the management API', async () => {
    const res = await signIn(ADMIN_KEY);
    expect(res.status).toBe(201);
    const setCookie = res.headers.get('set-cookie')!;
    // a compact JWS: header.payload.signature
    expect(setCookie).toMatch(new RegExp(`^${SESSION_COOKIE}=[\\w-]+\\.[\\w-]+\\.[\\w-]+;`));
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Strict/i);
    expect(setCookie).toMatch(/Path=\//);
    expect(setCookie).toMatch(/Max-Age=1800/);
    const text = JSON.stringify(await res.json());
    expect(text).not.toContain(ADMIN_KEY);
    expect(setCookie).not.toContain('test-admin-key');

    const s = await session(ADMIN_KEY);
    const list = await api('GET', '/projects', { cookie: s.cookie });
    expect(list.status).toBe(200);
    const who = await fetch(url('/console/session'), { headers: { cookie: s.cookie } });
    expect(((await who.json()) as { data: { kind: string } }).data.kind).toBe('admin');
  });

  it('refuses a wrong key, a missing key and a non-JSON sign-in', async () => {
    const wrong = await signIn('hr_admin.not-the-key');
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('set-cookie')).toBeNull();
    const blank = await signIn('   ');
    expect(blank.status).toBe(400);
    expect(JSON.stringify(await blank.json())).toContain('key');
    const notText = await fetch(url('/console/session'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key: 42, extra: true }),
    });
    expect(notText.status).toBe(400);
    const form = await fetch(url('/console/session'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `key=${ADMIN_KEY}`,
    });
    expect(form.status).toBe(415);
    const crossSite = await signIn(ADMIN_KEY, { 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
  });

  it('without a cookie, with a forged or an expired one, the API answers 401', async () => {
    expect((await api('GET', '/projects', {})).status).toBe(401);
    expect((await fetch(url('/console/session'))).status).toBe(401);

    // A project session re-signed as admin without the key: the signature no longer matches.
    const p = await h.createProject();
    const s = await session(p.key);
    const [header, body, sig] = s.cookie.split('=')[1].split('.');
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString()) as Record<string, unknown>;
    const forgedBody = Buffer.from(JSON.stringify({ ...claims, kind: 'admin' })).toString('base64url');
    const forged = await api('GET', '/projects', {
      cookie: `${SESSION_COOKIE}=${header}.${forgedBody}.${sig}`,
    });
    expect(forged.status).toBe(401);
    expect(await message(forged)).toMatch(/invalid console session/);
    const otherSecret = await signSession(
      principalClaims({ via: 'key', kind: 'admin' }, new Date()),
      Buffer.alloc(32, 7),
    );
    expect((await api('GET', '/projects', { cookie: `${SESSION_COOKIE}=${otherSecret}` })).status).toBe(401);

    const old = await signSession(
      principalClaims({ via: 'key', kind: 'admin' }, new Date(Date.now() - 3600_000)),
      secret,
    );
    const expired = await api('GET', '/projects', { cookie: `${SESSION_COOKIE}=${old}` });
    expect(expired.status).toBe(401);
    expect(await message(expired)).toMatch(/expired/);
    const page = await fetch(url('/console/session'), { headers: { cookie: `${SESSION_COOKIE}=${old}` } });
    expect(await message(page)).toMatch(/console session expired/);
  });

  it('state-changing calls need the anti-CSRF header and a same-site request', async () => {
    const p = await h.createProject();
    const s = await session(ADMIN_KEY);
    const endpoint = { name: 'csrf', url: 'https://example.com/hook' };
    const path = `/projects/${p.id}/endpoints`;

    const noToken = await api('POST', path, { cookie: s.cookie }, endpoint);
    expect(noToken.status).toBe(403);
    expect(await message(noToken)).toMatch(/x-hookrail-csrf/);
    const wrong = await api('POST', path, { cookie: s.cookie, 'x-hookrail-csrf': 'nope' }, endpoint);
    expect(wrong.status).toBe(403);
    const crossSite = await api(
      'POST',
      path,
      { cookie: s.cookie, 'x-hookrail-csrf': s.csrf, 'sec-fetch-site': 'cross-site' },
      endpoint,
    );
    expect(crossSite.status).toBe(403);
    const otherOrigin = await api(
      'POST',
      path,
      { cookie: s.cookie, 'x-hookrail-csrf': s.csrf, origin: 'https://evil.example' },
      endpoint,
    );
    expect(otherOrigin.status).toBe(403);
    expect(
      (await h.store.endpoints.page(p.id, {}, { perPage: 10, direction: 'next', sort: 'DESC' })).content,
    ).toHaveLength(0);

    const good = await api('POST', path, { cookie: s.cookie, 'x-hookrail-csrf': s.csrf }, endpoint);
    expect(good.status).toBe(201);
    // Another session's token does not fit this one.
    const other = await session(ADMIN_KEY);
    expect(
      (await api('POST', path, { cookie: s.cookie, 'x-hookrail-csrf': other.csrf }, endpoint)).status,
    ).toBe(403);
  });

  it('a project key session sees only its project and ends when its key is revoked', async () => {
    const mine = await h.createProject();
    const theirs = await h.createProject();
    const s = await session(mine.key);
    expect((await api('GET', `/projects/${mine.id}/endpoints`, { cookie: s.cookie })).status).toBe(200);
    expect((await api('GET', `/projects/${theirs.id}/endpoints`, { cookie: s.cookie })).status).toBe(403);
    expect((await api('GET', '/projects', { cookie: s.cookie })).status).toBe(403);

    const keyId = /^hr_([^.]+)\./.exec(mine.key)![1];
    const revoke = await api('DELETE', `/projects/${mine.id}/keys/${keyId}`, {
      cookie: s.cookie,
      'x-hookrail-csrf': s.csrf,
    });
    expect(revoke.status).toBe(200);
    const after = await api('GET', `/projects/${mine.id}/endpoints`, { cookie: s.cookie });
    expect(after.status).toBe(401);
    expect(await message(after)).toMatch(/no longer valid/);
  });

  it('signs out only with the anti-CSRF header, and clears the cookie', async () => {
    const s = await session(ADMIN_KEY);
    const noToken = await fetch(url('/console/session'), { method: 'DELETE', headers: { cookie: s.cookie } });
    expect(noToken.status).toBe(403);
    const out = await fetch(url('/console/session'), {
      method: 'DELETE',
      headers: { cookie: s.cookie, 'x-hookrail-csrf': s.csrf },
    });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(
      new RegExp(`^${SESSION_COOKIE}=;.*Expires=Thu, 01 Jan 1970`),
    );
  });

  it('serves the page with a strict content security policy, and / leads to it', async () => {
    const page = await fetch(url('/console/projects/x/deliveries?status=Failure'));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const script = /<script src="(\/console\/assets\/console-[A-Z0-9]+\.js)">/.exec(await page.text());
    expect(script).not.toBeNull();
    const js = await fetch(url(script![1]));
    expect(js.headers.get('content-type')).toMatch(/javascript/);
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await js.text()).length).toBeGreaterThan(1000);
    const root = await fetch(url('/'), { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/console');
  });
});
