import { sparePort } from '@hookrail/testkit';
import { ADMIN_KEY, GatewayHarness } from '../testing/gateway-harness';

/**
 * A gateway with single sign-on only (key sign-in turned off) whose provider cannot be reached:
 * the sign-in page is told so, a key is refused naming the setting, and the provider's absence is
 * a clear 503 page, never a 500.
 */
describe('console sign-in options: key sign-in off, provider unreachable', () => {
  const h = new GatewayHarness();
  let issuer: string;
  beforeAll(async () => {
    issuer = `http://127.0.0.1:${await sparePort()}`; // nothing listens there
    await h.start({
      HOOKRAIL_CONSOLE_KEY_SIGN_IN: 'false',
      HOOKRAIL_OIDC_ISSUER: issuer,
      HOOKRAIL_OIDC_CLIENT_ID: 'hookrail',
      HOOKRAIL_OIDC_CLIENT_SECRET: 'secret',
      HOOKRAIL_OIDC_ROLE_MAPPING: '{"instance": {"ops": "owner"}}',
    });
  });
  afterAll(() => h.stop());

  it('tells the sign-in page: no key, single sign-on at /console/oidc/login', async () => {
    const res = await fetch(`${h.gateway.url}/console/sign-in-options`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: unknown }).data).toEqual({
      key: false,
      single_sign_on: { login_url: '/console/oidc/login' },
    });
  });

  it('refuses the admin key at sign-in with a 403 naming the setting; the API still takes it', async () => {
    const res = await fetch(`${h.gateway.url}/console/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key: ADMIN_KEY }),
    });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { message: string }).message).toMatch(/HOOKRAIL_CONSOLE_KEY_SIGN_IN=false/);
    expect(res.headers.get('set-cookie')).toBeNull();
    expect((await h.call('GET', '/v1/projects', { key: ADMIN_KEY })).status).toBe(200);
  });

  it('answers a sign-in while the provider is unreachable with a 503 page naming the provider', async () => {
    const res = await fetch(`${h.gateway.url}/console/oidc/login`, { redirect: 'manual' });
    expect(res.status).toBe(503);
    expect(await res.text()).toContain(`identity provider ${issuer}: discovery failed`);
  });

  it('refuses a forged session cookie of a person with 401, not 500', async () => {
    const res = await fetch(`${h.gateway.url}/console/session`, {
      headers: { cookie: 'hookrail_console=eyJhbGciOiJIUzI1NiJ9.eyJraW5kIjoidXNlciJ9.AAAA' },
    });
    expect(res.status).toBe(401);
  });
});
