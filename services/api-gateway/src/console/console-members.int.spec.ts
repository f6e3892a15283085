import { SignJWT } from 'jose';
import type { Browser, Page } from 'playwright-core';
import type { RunningService } from '@hookrail/runtime';
import type { ProjectId } from '@hookrail/domain';
import {
  makeEndpoint,
  sparePort,
  startDevIdpProcess,
  startTestService,
  testConfig,
  waitFor,
  type DevIdpProcess,
} from '@hookrail/testkit';
import { definition as metaEvent } from '../../../meta-event/src/service';
import { ADMIN_KEY, GatewayHarness } from '../testing/gateway-harness';
import { launchChromium, seriousViolations } from '../portal/testing/portal-browser';
import { seedDelivery } from '../portal/testing/portal-fixtures';
import { signInThroughProvider } from './testing/oidc-browser';

jest.setTimeout(150_000);

type AuditRecord = {
  operation: string;
  project_id: string | null;
  actor: { kind: string; user_id: string | null; email: string | null };
  resource: { type: string; id: string | null };
  status: number;
  changes: Record<string, { before: unknown; after: unknown }> | null;
};

/**
 * People and roles end to end, through the real dev provider (its own process) and Chromium: an
 * owner assigns a role in the console, the person it was given to uses it, and the change is in
 * the audit log; a person with project roles only sees those projects; the provider's back-channel
 * logout ends a console session.
 */
describe('console: roles assigned by an owner, back-channel logout', () => {
  const h = new GatewayHarness();
  let idp: DevIdpProcess;
  let worker: RunningService | undefined;
  let browser: Browser;
  let gw: string;
  beforeAll(async () => {
    const port = await sparePort();
    gw = `http://127.0.0.1:${port}`;
    idp = await startDevIdpProcess(`${gw}/console/oidc/callback`);
    await h.start({
      HOOKRAIL_HTTP_PORT: String(port),
      HOOKRAIL_PUBLIC_URL: gw,
      HOOKRAIL_ENCRYPTION_KEY: 'b'.repeat(64),
      HOOKRAIL_OIDC_ISSUER: idp.issuer,
      HOOKRAIL_OIDC_CLIENT_ID: idp.clientId,
      HOOKRAIL_OIDC_CLIENT_SECRET: idp.clientSecret,
      // alice is an instance owner; bob's group is mapped to nothing: his roles are assigned
      HOOKRAIL_OIDC_ROLE_MAPPING: JSON.stringify({ instance: { 'hookrail-owners': 'owner' }, projects: {} }),
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

  const pages: Page[] = [];
  const newPage = async () => {
    const page = await (await browser.newContext()).newPage();
    page.setDefaultTimeout(15_000);
    pages.push(page);
    return page;
  };
  afterEach(async () => {
    for (const page of pages.splice(0)) await page.context().close();
  });

  const audited = (query: string, match: (r: AuditRecord) => boolean) =>
    waitFor(
      `an audit record (${query})`,
      async () => {
        const res = await h.call('GET', `/v1/audit-log?${query}`, { key: ADMIN_KEY });
        return (res.body.data.content as AuditRecord[]).find(match);
      },
      { timeoutMs: 40_000 },
    );

  /** The API's answer to a call made by the page's session (its cookie and anti-CSRF header). */
  const sessionCall = (page: Page, method: string, path: string) =>
    page.evaluate(
      async ([m, p]) => {
        const session = (await (await fetch('/console/session')).json()) as {
          data?: { csrf_header: string; csrf_token: string };
        };
        const headers =
          session.data && m !== 'GET' ? { [session.data.csrf_header]: session.data.csrf_token } : {};
        const res = await fetch(p, { method: m, headers });
        return { status: res.status, body: (await res.json()) as { message: string; data: unknown } };
      },
      [method, path] as const,
    );

  it('alice assigns bob operator in a project; bob sees only his projects and retries a delivery there; the change is alice’s in the audit log', async () => {
    const [p, q, other] = [await h.createProject(), await h.createProject(), await h.createProject()];
    const endpoint = await makeEndpoint(h.store, p.id, { url: 'http://127.0.0.1:9/a', name: 'billing' });
    const { delivery } = await seedDelivery(h.store, p.id, endpoint._id, 'Failure');

    // bob's groups give him nothing: refused, but known from now on
    const bob = await newPage();
    await signInThroughProvider(bob, gw, 'bob');
    await expect(bob.locator('#sign-in-refused').textContent()).resolves.toMatch(
      /or an owner to assign you one/,
    );

    const alice = await newPage();
    await signInThroughProvider(alice, gw, 'alice');
    await alice.goto(`${gw}/console/projects/${p.id}/settings`);
    await alice.getByLabel('Assigned role for Bob Viewer').selectOption('operator');
    await alice.getByRole('button', { name: 'Apply role for Bob Viewer' }).click();
    await alice.locator('#toast', { hasText: 'bob@example.test is now operator' }).waitFor();
    expect(await seriousViolations(alice)).toEqual([]);
    await h.call('PUT', `/v1/projects/${q.id}/members/user-bob`, {
      key: ADMIN_KEY,
      body: { role: 'viewer' },
    });

    // a new browser: the provider would otherwise sign bob in again from its own session at once
    const bobAgain = await newPage();
    await signInThroughProvider(bobAgain, gw, 'bob');
    await expect(bobAgain.locator('#who').textContent()).resolves.toBe('Signed in as Bob Viewer (viewer)');
    const listed = await sessionCall(bobAgain, 'GET', '/api/v1/projects?perPage=100');
    expect(listed.status).toBe(200);
    const uids = (listed.body.data as { content: { uid: string }[] }).content.map((x) => x.uid);
    expect(uids.sort()).toEqual([p.id, q.id].sort());
    await bobAgain.locator(`#projects`).getByText(p.id).waitFor();
    expect(await bobAgain.locator('#projects').innerText()).not.toContain(other.id);
    expect((await sessionCall(bobAgain, 'GET', `/api/v1/projects/${other.id}`)).status).toBe(403);

    await bobAgain.goto(`${gw}/console/projects/${p.id}/deliveries?status=Failure`);
    await bobAgain.locator(`tr[data-id="${delivery._id}"]`).getByRole('button', { name: 'Retry' }).click();
    await bobAgain.locator('#toast', { hasText: 'Delivery retried' }).waitFor();
    expect((await h.store.deliveries.findById(p.id as ProjectId, delivery._id))?.status).toBe('Scheduled');

    // an owner of one project, with no role on the instance: its settings show its people, not the
    // instance's "Delete project" (the API refuses that to a project role)
    await h.call('PUT', `/v1/projects/${q.id}/members/user-bob`, { key: ADMIN_KEY, body: { role: 'owner' } });
    await bobAgain.goto(`${gw}/console/projects/${q.id}/settings`);
    await bobAgain.locator('#members-heading', { hasText: 'People and roles' }).waitFor();
    expect(await bobAgain.getByRole('button', { name: 'Delete project' }).count()).toBe(0);
    expect((await sessionCall(bobAgain, 'DELETE', `/api/v1/projects/${q.id}`)).status).toBe(403);

    const change = await audited(
      'operation=member.role_changed',
      (r) => r.project_id === p.id && r.resource.id === 'user-bob',
    );
    expect(change.actor).toMatchObject({ kind: 'user', user_id: 'user-alice', email: 'alice@example.test' });
    expect(change.changes?.role).toEqual({ before: null, after: 'operator' });
    const retry = await audited('operation=resendEventDelivery', (r) => r.project_id === p.id);
    expect(retry.actor).toMatchObject({ kind: 'user', user_id: 'user-bob' });
    // and the console's audit log page shows it to alice
    await alice.goto(`${gw}/console/projects/${p.id}/audit-log?operation=member.role_changed`);
    const row = await alice.locator('#audit-log tbody tr').first().innerText();
    expect(row).toContain('alice@example.test');
    expect(row).toContain('user user-bob');
  });

  it('alice gives carol, whose groups map to nothing, a role on the instance: carol signs in; revoked, her session ends', async () => {
    const carol = await newPage();
    await signInThroughProvider(carol, gw, 'carol');
    await carol.locator('#sign-in-refused').waitFor();

    const alice = await newPage();
    await signInThroughProvider(alice, gw, 'alice');
    await alice.getByRole('heading', { name: 'People and instance roles' }).waitFor();
    await alice.getByLabel('Assigned role for Carol Marketing').selectOption('viewer');
    await alice.getByRole('button', { name: 'Apply role for Carol Marketing' }).click();
    await alice.locator('#toast', { hasText: 'carol@example.test is now viewer' }).waitFor();

    const carolAgain = await newPage();
    await signInThroughProvider(carolAgain, gw, 'carol');
    await expect(carolAgain.locator('#who').textContent()).resolves.toBe(
      'Signed in as Carol Marketing (viewer)',
    );
    const change = await audited(
      'operation=member.role_changed',
      (r) => r.project_id === null && r.resource.id === 'user-carol',
    );
    expect(change.actor).toMatchObject({ user_id: 'user-alice' });

    await h.call('DELETE', '/v1/members/user-carol', { key: ADMIN_KEY });
    const ended = await sessionCall(carolAgain, 'GET', '/console/session');
    expect(ended.status).toBe(401);
    expect(ended.body.message).toMatch(/you no longer hold any role in Hookrail/);
  });

  it('ends alice’s console session when she signs out at the provider (back-channel logout)', async () => {
    const alice = await newPage();
    await signInThroughProvider(alice, gw, 'alice');
    expect((await sessionCall(alice, 'GET', '/console/session')).status).toBe(200);
    await alice.goto(`${idp.issuer}/session/end`);
    await alice.getByRole('button', { name: /sign me out/i }).click();
    await alice.getByRole('heading', { name: 'Sign-out Success' }).waitFor();
    await alice.goto(`${gw}/console`);
    const ended = await sessionCall(alice, 'GET', '/console/session');
    expect(ended.status).toBe(401);
    expect(ended.body.message).toMatch(
      /your identity provider ended this session \(signed out at the provider/,
    );
    const record = await audited('operation=session.logout', (r) => r.actor.user_id === 'user-alice');
    expect(record.status).toBe(200);
  });

  it('refuses a logout token that does not verify, or none, with a 400, recorded', async () => {
    const forged = await new SignJWT({
      sub: 'user-alice',
      events: { 'http://schemas.openid.net/event/backchannel-logout': {} },
    })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(idp.issuer)
      .setAudience(idp.clientId)
      .setIssuedAt()
      .setJti('forged')
      .sign(new TextEncoder().encode('not the provider’s key'));
    const post = (body: string) =>
      fetch(`${gw}/console/oidc/backchannel-logout`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });
    const refused = await post(`logout_token=${forged}`);
    expect(refused.status).toBe(400);
    const answer = (await refused.json()) as { error: string; error_description: string };
    expect(answer.error).toBe('invalid_request');
    expect(answer.error_description).toMatch(/logout token refused/);
    const none = await post('');
    expect(none.status).toBe(400);
    expect(((await none.json()) as { error_description: string }).error_description).toMatch(
      /no logout_token/,
    );
    const record = await audited('operation=session.logout_failed', (r) => r.status === 400);
    expect(record.changes?.reason?.after).toMatch(/logout token refused|no logout_token/);
  });
});
