import { decodeJwt, SignJWT } from 'jose';
import type { Browser, Page } from 'playwright-core';
import type { RunningService } from '@hookrail/runtime';
import type { ProjectId } from '@hookrail/domain';
import {
  connectTestStore,
  makeEndpoint,
  makeProject,
  sparePort,
  startDevIdpProcess,
  startTestService,
  testConfig,
  waitFor,
  type DevIdpProcess,
} from '@hookrail/testkit';
import { definition as metaEvent } from '../../../meta-event/src/service';
import { ADMIN_KEY, GatewayHarness } from '../testing/gateway-harness';
import { launchChromium } from '../portal/testing/portal-browser';
import { sessionSecret } from './console-session';
import { providerLogin, signInThroughProvider } from './testing/oidc-browser';

jest.setTimeout(120_000);

const ENCRYPTION_KEY = 'a'.repeat(64);
const INSTANCE_ROLES = { 'hookrail-owners': 'owner', 'hookrail-viewers': 'viewer' };

type Actor = { kind: string; via: string; user_id: string | null; email: string | null; role: string | null };
type AuditRecord = {
  uid: string;
  operation: string;
  actor: Actor;
  status: number;
  changes: { reason?: { after: string } } | null;
};

/**
 * Single sign-on end to end: the real dev provider (oidc-provider, as its own process), the
 * gateway configured for it, Chromium through the provider's password form, and the audit log
 * stored by a real meta-event service.
 */
describe('console: single sign-on through OpenID Connect', () => {
  const h = new GatewayHarness();
  let idp: DevIdpProcess;
  let worker: RunningService | undefined;
  let browser: Browser;
  let gw: string;
  /** A project where bob's group is mapped to admin (he is a viewer everywhere else). */
  let bobsProject: ProjectId;
  beforeAll(async () => {
    const store = await connectTestStore();
    bobsProject = await makeProject(store, {}, 'outgoing');
    await store.close();
    const mapping = {
      instance: INSTANCE_ROLES,
      projects: { [bobsProject]: { 'hookrail-viewers': 'admin' } },
    };
    const port = await sparePort();
    gw = `http://127.0.0.1:${port}`;
    idp = await startDevIdpProcess(`${gw}/console/oidc/callback`);
    await h.start({
      HOOKRAIL_HTTP_PORT: String(port),
      HOOKRAIL_PUBLIC_URL: gw,
      HOOKRAIL_ENCRYPTION_KEY: ENCRYPTION_KEY,
      HOOKRAIL_OIDC_ISSUER: idp.issuer,
      HOOKRAIL_OIDC_CLIENT_ID: idp.clientId,
      HOOKRAIL_OIDC_CLIENT_SECRET: idp.clientSecret,
      HOOKRAIL_OIDC_ROLE_MAPPING: JSON.stringify(mapping),
      HOOKRAIL_OIDC_REFRESH_SECONDS: '10',
    });
    worker = await startTestService(
      metaEvent(testConfig('meta-event', { HOOKRAIL_KAFKA_TOPIC_PREFIX: h.prefix })),
    );
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await worker?.stop();
    await h.stop();
    await idp?.stop();
  });

  let page: Page;
  beforeEach(async () => {
    await idp.setFault('none');
    page = await (await browser.newContext()).newPage();
    page.setDefaultTimeout(15_000);
  });
  afterEach(() => page.context().close());

  /** The instance's audit records of `operation` for which `match` holds, once stored. */
  const audited = (operation: string, match: (r: AuditRecord) => boolean) =>
    waitFor(
      `an audit record of ${operation}`,
      async () => {
        const res = await h.call('GET', `/v1/audit-log?operation=${operation}`, { key: ADMIN_KEY });
        return (res.body.data.content as AuditRecord[]).find(match);
      },
      { timeoutMs: 40_000 },
    );

  async function endpointPage() {
    const p = await h.createProject();
    const endpoint = await makeEndpoint(h.store, p.id, { url: 'http://127.0.0.1:9/a', name: 'billing' });
    return { p, endpoint, url: `${gw}/console/projects/${p.id}/endpoints/${endpoint._id}` };
  }

  it('signs alice in as an owner, who pauses an endpoint: the pause and the sign-in are hers in the audit log', async () => {
    const { p, endpoint, url } = await endpointPage();
    await signInThroughProvider(page, gw, 'alice');
    await expect(page.locator('#who').textContent()).resolves.toBe('Signed in as Alice Owner (owner)');
    await page.goto(url);
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByRole('button', { name: 'Activate' }).waitFor();
    const stored = await h.call('GET', `/v1/projects/${p.id}/endpoints/${endpoint._id}`, { key: p.key });
    expect(stored.body.data.status).toBe('paused');

    const byAlice = (r: AuditRecord) => r.actor.email === 'alice@example.test';
    const pause = await audited('pauseEndpoint', byAlice);
    expect(pause.actor).toMatchObject({ kind: 'user', via: 'console', user_id: 'user-alice', role: 'owner' });
    expect(pause.status).toBeLessThan(300);
    const signIn = await audited('session.sign_in', byAlice);
    expect(signIn.actor).toMatchObject({ kind: 'user', user_id: 'user-alice', role: 'owner' });
    // The actor filter finds a person by e-mail and by user id.
    for (const actor of ['alice@example.test', 'user-alice']) {
      const mine = await h.call('GET', `/v1/audit-log?actor=${actor}&operation=pauseEndpoint`, {
        key: ADMIN_KEY,
      });
      expect((mine.body.data.content as AuditRecord[]).map((r) => r.uid)).toContain(pause.uid);
    }
  });

  it('signs bob in as a viewer: no write action shown, a write call is a 403 naming the permission, and recorded', async () => {
    const { url } = await endpointPage();
    await signInThroughProvider(page, gw, 'bob');
    await expect(page.locator('#who').textContent()).resolves.toBe('Signed in as Bob Viewer (viewer)');
    await page.goto(url);
    await page.getByRole('heading', { name: 'billing' }).waitFor();
    expect(await page.getByRole('button', { name: 'Pause' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Edit' }).count()).toBe(0);

    const pauseUrl = url.replace('/console/projects/', '/api/v1/projects/') + '/pause';
    const answer = await page.evaluate(async (target) => {
      const session = (await (await fetch('/console/session')).json()) as {
        data: { csrf_header: string; csrf_token: string };
      };
      const res = await fetch(target, {
        method: 'PUT',
        headers: { [session.data.csrf_header]: session.data.csrf_token },
      });
      return { status: res.status, body: (await res.json()) as { message: string } };
    }, pauseUrl);
    expect(answer.status).toBe(403);
    expect(answer.body.message).toMatch(/role viewer lacks the permission configure/);
    const refused = await audited(
      'pauseEndpoint',
      (r) => r.actor.email === 'bob@example.test' && r.status === 403,
    );
    expect(refused).toMatchObject({
      status: 403,
      actor: { kind: 'user', user_id: 'user-bob', role: 'viewer' },
    });
  });

  it("gives bob the role his group has in a project's mapping there: admin, so his pause there is allowed and recorded as admin", async () => {
    const endpoint = await makeEndpoint(h.store, bobsProject, {
      url: 'http://127.0.0.1:9/b',
      name: 'ledger',
    });
    await signInThroughProvider(page, gw, 'bob');
    await page.goto(`${gw}/console/projects/${bobsProject}/endpoints/${endpoint._id}`);
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByRole('button', { name: 'Activate' }).waitFor();
    const pause = await audited(
      'pauseEndpoint',
      (r) => r.actor.email === 'bob@example.test' && r.status < 300,
    );
    expect(pause.actor).toMatchObject({ kind: 'user', user_id: 'user-bob', role: 'admin' });
  });

  it('refuses carol, whose group maps to no role: a 403 page saying so, recorded as a failed sign-in', async () => {
    await signInThroughProvider(page, gw, 'carol');
    await expect(page.locator('#sign-in-refused').textContent()).resolves.toMatch(
      /none of your groups \(marketing\) gives a role in Hookrail/,
    );
    const failed = await audited('session.sign_in_failed', (r) => r.actor.email === 'carol@example.test');
    expect(failed).toMatchObject({ status: 403, actor: { kind: 'user', user_id: 'user-carol', role: null } });
    expect(failed.changes?.reason?.after).toMatch(/HOOKRAIL_OIDC_ROLE_MAPPING/);
  });

  it.each([
    ['tampered', /signature/i],
    ['expired', /"exp"|timestamp/],
    ['other-issuer', /"iss"|issuer/],
  ] as const)('refuses a %s ID token with a 401 page naming the check', async (fault, message) => {
    await idp.setFault(fault);
    await signInThroughProvider(page, gw, 'alice');
    const refusal = await page.locator('#sign-in-refused').textContent();
    expect(refusal).toMatch(message);
    const status = await page.evaluate(async () => (await fetch('/console/session')).status);
    expect(status).toBe(401); // no session was opened
    await audited(
      'session.sign_in_failed',
      (r) => r.status === 401 && !!r.changes?.reason?.after.match(message),
    );
  });

  it('refuses a callback whose state is not the one the sign-in started with (400), and one with no sign-in started', async () => {
    await page.goto(`${gw}/console/oidc/login`);
    await page.getByLabel('User name').waitFor();
    // with the provider's `iss` (RFC 9207), which the library checks before the state
    const iss = encodeURIComponent(idp.issuer);
    const wrongState = await page.goto(`${gw}/console/oidc/callback?code=abc&state=forged&iss=${iss}`);
    expect(wrongState?.status()).toBe(400);
    await expect(page.locator('#sign-in-refused').textContent()).resolves.toMatch(/"state"/);

    await page.context().clearCookies();
    const none = await page.goto(`${gw}/console/oidc/callback?code=abc&state=forged`);
    expect(none?.status()).toBe(400);
    await expect(page.locator('#sign-in-refused').textContent()).resolves.toMatch(
      /no sign-in is in progress/,
    );
  });

  it('refuses an ID token whose nonce is not the sign-in’s (401)', async () => {
    await page.goto(`${gw}/console/oidc/login`);
    await page.getByLabel('User name').waitFor();
    // the flow cookie re-signed with another nonce: state and PKCE still match, only the nonce does not
    const [flow] = (await page.context().cookies(`${gw}/console/oidc/callback`)).filter(
      (c) => c.name === 'hookrail_oidc',
    );
    const claims = decodeJwt(flow.value);
    const forged = await new SignJWT({ ...claims, nonce: 'another-nonce' })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(sessionSecret(ENCRYPTION_KEY, ADMIN_KEY));
    await page.context().addCookies([{ ...flow, value: forged }]);
    await providerLogin(page, gw, 'alice');
    await expect(page.locator('#sign-in-refused').textContent()).resolves.toMatch(/"nonce"/);
  });

  it('ends a removed person’s session at its next refresh with the provider', async () => {
    await signInThroughProvider(page, gw, 'bob');
    const sessionStatus = () => page.evaluate(async () => (await fetch('/console/session')).status);
    expect(await sessionStatus()).toBe(200);
    await idp.removeUser('bob');
    // the session asks the provider again 10 s after sign-in (HOOKRAIL_OIDC_REFRESH_SECONDS)
    await new Promise((resolve) => setTimeout(resolve, 10_500));
    const ended = await page.evaluate(async () => {
      const res = await fetch('/console/session');
      return { status: res.status, body: (await res.json()) as { message: string } };
    });
    expect(ended.status).toBe(401);
    expect(ended.body.message).toMatch(/your identity provider ended this session/);
    const record = await audited('session.ended', (r) => r.actor.email === 'bob@example.test');
    expect(record).toMatchObject({ status: 401, actor: { kind: 'user', user_id: 'user-bob' } });
    expect(record.changes?.reason?.after).toMatch(/invalid_grant/);
  });
});
