import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { DeliveryMessage } from '@hookrail/bus';
import { newId } from '@hookrail/domain';
import { ALL_ENDPOINTS } from '@hookrail/store';
import { makeSubscription, waitFor } from '@hookrail/testkit';
import { ADMIN_KEY, GatewayHarness } from '../testing/gateway-harness';
import {
  confirmDialog,
  launchChromium,
  screenshot,
  seriousViolations,
} from '../portal/testing/portal-browser';
import { seedDelivery, seedEndpoint } from '../portal/testing/portal-fixtures';
import { SESSION_COOKIE, principalClaims, sessionSecret, signSession } from './console-session';

jest.setTimeout(120_000);

const ENCRYPTION_KEY = 'console-ui-test-key';
/** The console in a real headless Chromium against the real gateway and store. */
describe('operator console in a real headless Chromium', () => {
  const h = new GatewayHarness();
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let sent: DeliveryMessage[];
  /** Script errors and CSP refusals the page logged: none is expected. */
  let pageErrors: string[];

  beforeAll(async () => {
    await h.start({ HOOKRAIL_ENCRYPTION_KEY: ENCRYPTION_KEY });
    sent = await h.collect('deliveries');
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await h.stop();
  });
  beforeEach(async () => {
    context = await browser.newContext({ viewport: { width: 1300, height: 900 } });
    page = await context.newPage();
    page.setDefaultTimeout(10_000); // a missing element fails with its locator, before jest's 30 s
    pageErrors = [];
    // (HTTP errors the page handles, e.g. 401 before sign-in, are logged too: not counted)
    page.on('console', (m) => {
      if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) pageErrors.push(m.text());
    });
    page.on('pageerror', (e) => void pageErrors.push(e.message));
  });
  afterEach(async () => context?.close());

  const shot = (name: string) => screenshot(page, `console-${name}`);
  async function signIn(key: string) {
    await page.locator('#key').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  it('admin: signs in, opens a filtered deliveries link, retries one and batch-retries the filter', async () => {
    const p = await h.createProject();
    const billing = await seedEndpoint(h.store, p.id, 'acme', 'billing', 'https://acme.example/billing');
    const other = await seedEndpoint(h.store, p.id, 'acme', 'other', 'https://acme.example/other');
    const ok = await seedDelivery(h.store, p.id, billing._id, 'Success');
    const f1 = await seedDelivery(h.store, p.id, billing._id, 'Failure');
    const f2 = await seedDelivery(h.store, p.id, billing._id, 'Failure');
    const f3 = await seedDelivery(h.store, p.id, other._id, 'Failure');

    await page.goto(`${h.gateway.url}/console`);
    await signIn(ADMIN_KEY);
    await page.locator(`#projects a[href="/console/projects/${p.id}"]`).waitFor();
    // The key is not kept by the page: the cookie is httpOnly and browser storage stays empty.
    // (a string: the test's TypeScript has no DOM types)
    const stored = await page.evaluate('[document.cookie, localStorage.length, sessionStorage.length]');
    expect(stored).toEqual(['', 0, 0]);
    const [cookie] = await context.cookies();
    expect(cookie).toMatchObject({ name: SESSION_COOKIE, httpOnly: true, sameSite: 'Strict' });
    await shot('01-projects');

    // A shared link: the filter comes from the URL.
    await page.goto(
      `${h.gateway.url}/console/projects/${p.id}/deliveries?status=Failure&endpoint_id=${billing._id}`,
    );
    await page.locator('#deliveries tbody tr').nth(1).waitFor();
    const ids = await page
      .locator('#deliveries tbody tr')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')));
    expect(ids.sort()).toEqual([f1.delivery._id, f2.delivery._id].sort());
    expect(ids).not.toContain(ok.delivery._id);
    expect(await page.locator('select[name="status"]').inputValue()).toBe('Failure');
    // the endpoint by its name, not its id
    const row = await page.locator(`tr[data-id="${f1.delivery._id}"]`).innerText();
    expect(row).toContain('billing');
    expect(row).not.toContain(billing._id);
    await shot('02-deliveries-filtered');
    expect(await seriousViolations(page)).toEqual([]);

    await page.locator(`tr[data-id="${f1.delivery._id}"]`).getByRole('button', { name: 'Retry' }).click();
    await page.locator('#toast', { hasText: 'Delivery retried' }).waitFor();
    expect((await h.store.deliveries.findById(p.id, f1.delivery._id))?.status).toBe('Scheduled');
    await waitFor('the resend message', () => sent.some((m) => m.delivery_id === f1.delivery._id));

    // Batch retry over the current filter: the other endpoint's failure is left alone.
    await page.locator('#batch-retry').click();
    expect(await confirmDialog(page)).toBe(
      `Retry 1 Failure deliveries with endpoint_id = ${billing._id} (up to 1,000 per run)?`,
    );
    await page.locator('#toast', { hasText: 'Batch retry: 1 of 1' }).waitFor();
    expect((await h.store.deliveries.findById(p.id, f2.delivery._id))?.status).toBe('Scheduled');
    expect((await h.store.deliveries.findById(p.id, f3.delivery._id))?.status).toBe('Failure');
    await page.locator('#empty', { hasText: 'Nothing matches these filters' }).waitFor();

    // The attempt's request and response.
    await page.goto(`${h.gateway.url}/console/projects/${p.id}/deliveries/${f3.delivery._id}`);
    await page.locator('section.attempt').waitFor();
    const attempt = await page.locator('section.attempt').innerText();
    expect(attempt).toContain('HTTP 500');
    expect(attempt).toContain('boom');
    await shot('03-delivery-attempts');

    // Every other view renders this project's data (or its empty state) without an error.
    const views: [string, string][] = [
      ['', 'endpoints'],
      ['/endpoints', 'billing'],
      [`/endpoints/${billing._id}`, 'Signing secrets'],
      ['/events', 'invoice.paid'],
      [`/events/${f3.eventId}`, 'Deliveries of this event'],
      ['/sources', 'No sources yet'],
      ['/subscriptions', 'No subscriptions yet'],
      ['/portal-links', 'No portal links yet'],
      ['/meta-events', 'No meta events yet'],
    ];
    for (const [path, text] of views) {
      await page.goto(`${h.gateway.url}/console/projects/${p.id}${path}`);
      await page.locator('main', { hasText: text }).waitFor();
      expect(await page.locator('main [role="alert"]').count()).toBe(0);
    }
    expect(pageErrors).toEqual([]);
  });

  it('shows a meta event recorded while meta events are off as not sent, with why, not as a failure', async () => {
    const p = await h.createProject();
    await h.store.metaEvents.insert(p.id, {
      _id: newId(),
      event_type: 'endpoint.created',
      status: 'Discarded',
      status_reason: 'meta events are disabled for the project',
      attempt: null,
      metadata: {
        raw: '{}',
        strategy: 'linear',
        interval_seconds: 10,
        max_retry_seconds: 0,
        num_trials: 0,
        retry_limit: 3,
        next_send_time: null,
      },
    });
    await page.goto(`${h.gateway.url}/console/projects/${p.id}/meta-events`);
    await signIn(p.key);
    const row = page.locator('#meta-events tr', { hasText: 'endpoint.created' });
    await row.waitFor();
    expect(await row.locator('.badge').innerText()).toBe('not sent');
    expect(await row.innerText()).toContain('meta events are disabled for the project');
    expect(await row.locator('.s-Discarded').count()).toBe(0);
  });

  it('project key: sees its project only, tests a filter with the real engine, signs out', async () => {
    const mine = await h.createProject();
    const theirs = await h.createProject();
    const ep = await seedEndpoint(h.store, mine.id, 'acme', 'orders', 'https://acme.example/orders');
    await makeSubscription(
      h.store,
      mine.id,
      { endpoint_id: ep._id, name: 'paid-only' },
      { body: { type: 'invoice.paid', amount: { $gte: 100 } } },
    );

    await page.goto(`${h.gateway.url}/console`);
    await signIn(mine.key);
    await page.waitForURL(`**/console/projects/${mine.id}`);
    await page.locator('.stat').first().waitFor();

    // Live refresh: the overview picks up a new failure without a reload.
    await page.goto(`${h.gateway.url}/console/projects/${mine.id}?live=5`);
    await page.locator('main', { hasText: 'No failed deliveries' }).waitFor();
    const late = await seedDelivery(h.store, mine.id, ep._id, 'Failure');
    await page.locator(`main tr[data-id="${late.delivery._id}"]`).waitFor();

    await page.goto(`${h.gateway.url}/console/projects/${mine.id}/subscriptions`);
    await page.locator('#tester-payload').waitFor();
    await page.locator('#tester-payload').fill('{"type":"invoice.paid","amount":250}');
    await page.locator('#tester-run').click();
    await page.locator('#tester-result', { hasText: 'Match' }).waitFor();
    await page.locator('#tester-payload').fill('{"type":"invoice.paid","amount":20}');
    await page.locator('#tester-run').click();
    await page.locator('#tester-result', { hasText: 'No match' }).waitFor();
    await shot('04-filter-tester');
    // Edit the filter from the tester: routing uses the saved one.
    await page.locator('#tester-filter').fill('{"body": {"type": "invoice.paid", "amount": {"$gte": 10}}}');
    await page.locator('#tester-save').click();
    expect(await confirmDialog(page)).toBe('Replace the filter of subscription paid-only?');
    await page.locator('#toast', { hasText: 'Filter saved' }).waitFor();
    await page.locator('#subscriptions', { hasText: '"$gte": 10' }).waitFor(); // re-rendered
    const [saved] = await h.store.subscriptions.listByEndpoint(mine.id, ep._id);
    expect(JSON.parse(saved.filter_config.filter.body_json)).toEqual({
      type: 'invoice.paid',
      amount: { $gte: 10 },
    });
    // The function tester runs in the delivery sandbox.
    await page.locator('#function-source').fill('function transform(p) { p.seen = true; return p }');
    await page.locator('#function-payload').fill('{"a": 1}');
    await page.locator('#function-run').click();
    await page.locator('#function-result', { hasText: '"seen": true' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await page.goto(`${h.gateway.url}/console/projects/${theirs.id}/endpoints`);
    await page.locator('[role="alert"]', { hasText: 'does not belong to the project' }).waitFor();
    expect(await page.locator('#endpoints').count()).toBe(0);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.locator('#sign-in-note', { hasText: 'signed out' }).waitFor();
    expect(await context.cookies()).toEqual([]);
  });

  it('charts: outcomes and latency from the counters on the overview and an endpoint, refreshed live', async () => {
    const p = await h.createProject();
    const ep = await seedEndpoint(h.store, p.id, 'acme', 'charts', 'https://acme.example/charts');
    const minute = Math.floor(Date.now() / 60_000) * 60_000;
    const count = (outcomes: Record<string, number>, latency: Record<number, number>) =>
      h.store.deliveryStats.increment(
        [ep._id, ALL_ENDPOINTS].map((endpointId) => ({
          projectId: p.id,
          endpointId,
          minute,
          outcomes,
          latency,
        })),
      );
    await count({ Success: 7, Failure: 1 }, { 2: 8 }); // 8 attempts of 50–100 ms
    await seedDelivery(h.store, p.id, ep._id, 'Retry');

    await page.goto(`${h.gateway.url}/console`);
    await signIn(p.key);
    await page.locator('#stats-summary', { hasText: '7 succeeded' }).waitFor();
    expect(await page.locator('#stats-summary').innerText()).toMatch(/1 failed.*p50 \d+ ms, p95 \d+ ms/);
    expect(await page.locator('#retry-backlog').innerText()).toBe('1');
    // uPlot draws on a canvas; the chart's data table (collapsed) holds the steps with counts.
    expect(await page.locator('#chart-outcomes canvas').count()).toBe(1);
    expect(await page.locator('#chart-latency canvas').count()).toBe(1);
    expect(await page.locator('#chart-outcomes-data td[data-series="Success"]').allTextContents()).toEqual([
      '7',
    ]);
    expect(await page.locator('#chart-outcomes-data td[data-series="Failure"]').allTextContents()).toEqual([
      '1',
    ]);
    expect(await page.locator('#chart-latency-data td[data-series="p95_ms"]').allTextContents()).toEqual([
      expect.stringMatching(/^\d+ ms$/),
    ]);
    expect(await page.locator('#chart-outcomes').getAttribute('aria-label')).toContain('7 succeeded');
    await shot('06-overview-charts');
    expect(await seriousViolations(page)).toEqual([]);

    // An endpoint's page, last day, live: new counts appear without a reload.
    await page.goto(`${h.gateway.url}/console/projects/${p.id}/endpoints/${ep._id}?window=day&live=5`);
    await page.locator('#stats-summary', { hasText: 'Last day: 7 succeeded' }).waitFor();
    expect(await page.locator('a.tab[aria-current="true"]').innerText()).toBe('Last day');
    await count({ Success: 5 }, { 2: 5 });
    await page.locator('#stats-summary', { hasText: 'Last day: 12 succeeded' }).waitFor({ timeout: 20_000 });
    await shot('07-endpoint-charts');
    expect(pageErrors).toEqual([]);
  });

  it('an expired session shows its own page and signing in again returns to the same link', async () => {
    const p = await h.createProject();
    const old = await signSession(
      principalClaims({ kind: 'admin' }, new Date(Date.now() - 3600_000)),
      sessionSecret(ENCRYPTION_KEY, ADMIN_KEY),
    );
    await context.addCookies([{ name: SESSION_COOKIE, value: old, url: h.gateway.url }]);
    await page.goto(`${h.gateway.url}/console/projects/${p.id}/events?event_type=invoice.paid`);
    await page.getByRole('heading', { name: 'Session expired' }).waitFor();
    expect(await page.locator('#sign-in-note').innerText()).toMatch(/console session expired/);
    await shot('05-expired');
    expect(await seriousViolations(page)).toEqual([]);

    await signIn(ADMIN_KEY);
    await page.locator('#empty', { hasText: 'Nothing matches these filters' }).waitFor();
    expect(page.url()).toContain(`/console/projects/${p.id}/events?event_type=invoice.paid`);
    expect(await page.locator('input[name="event_type"]').inputValue()).toBe('invoice.paid');
  });

  it('keyboard alone: signs in from the focused key field and answers a confirmation (Escape cancels)', async () => {
    const p = await h.createProject();
    const ep = await seedEndpoint(h.store, p.id, 'acme', 'keys', 'https://acme.example/keys');
    const secrets = async () => (await h.store.endpoints.findById(p.id, ep._id))?.secrets?.length;
    const before = await secrets();

    await page.goto(`${h.gateway.url}/console/projects/${p.id}/endpoints/${ep._id}`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await page.evaluate('document.activeElement.id')).toBe('key');
    await page.keyboard.type(p.key);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Endpoint keys' }).waitFor();

    const roll = page.getByRole('button', { name: 'Roll secret' });
    await roll.focus();
    await page.keyboard.press('Enter');
    await page.locator('dialog#confirm[open]').waitFor();
    // the dialog takes the focus (on its confirm button); Escape closes it and nothing is done
    expect(await page.evaluate('document.activeElement.closest("dialog")?.id')).toBe('confirm');
    await page.keyboard.press('Escape');
    await page.locator('dialog#confirm[open]').waitFor({ state: 'detached' });
    expect(await secrets()).toBe(before);

    await roll.focus();
    await page.keyboard.press('Enter');
    await page.locator('dialog#confirm[open]').waitFor();
    await page.keyboard.press('Enter');
    await page.locator('#toast', { hasText: 'Secret rolled' }).waitFor();
    expect(await secrets()).toBe(before! + 1);
    expect(pageErrors).toEqual([]);
  });
});
