import type { DeliveryMessage } from '@hookrail/bus';
import { newId } from '@hookrail/domain';
import { ALL_ENDPOINTS } from '@hookrail/store';
import { makeSubscription, waitFor } from '@hookrail/testkit';
import { ADMIN_KEY, GatewayHarness } from '../testing/gateway-harness';
import {
  confirmDialog,
  gatewayAndChromium,
  pagePerTest,
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
  let sent: DeliveryMessage[];

  const browser = gatewayAndChromium(h, { HOOKRAIL_ENCRYPTION_KEY: ENCRYPTION_KEY });
  beforeAll(async () => {
    sent = await h.collect('deliveries');
  });
  const { page: currentPage, errors } = pagePerTest(browser);

  const shot = (name: string) => screenshot(currentPage(), `console-${name}`);
  async function signIn(key: string) {
    await currentPage().locator('#key').fill(key);
    await currentPage().getByRole('button', { name: 'Sign in' }).click();
  }

  it('admin: signs in, opens a filtered deliveries link, retries one and batch-retries the filter', async () => {
    const p = await h.createProject();
    const billing = await seedEndpoint(h.store, p.id, 'acme', 'billing', 'https://acme.example/billing');
    const other = await seedEndpoint(h.store, p.id, 'acme', 'other', 'https://acme.example/other');
    const ok = await seedDelivery(h.store, p.id, billing._id, 'Success');
    const f1 = await seedDelivery(h.store, p.id, billing._id, 'Failure');
    const f2 = await seedDelivery(h.store, p.id, billing._id, 'Failure');
    const f3 = await seedDelivery(h.store, p.id, other._id, 'Failure');

    await currentPage().goto(`${h.gateway.url}/console`);
    await signIn(ADMIN_KEY);
    await currentPage().locator(`#projects a[href="/console/projects/${p.id}"]`).waitFor();
    // The key is not kept by the page: the cookie is httpOnly and browser storage stays empty.
    // (a string: the test's TypeScript has no DOM types)
    const stored = await currentPage().evaluate(
      '[document.cookie, localStorage.length, sessionStorage.length]',
    );
    expect(stored).toEqual(['', 0, 0]);
    const [cookie] = await currentPage().context().cookies();
    expect(cookie).toMatchObject({ name: SESSION_COOKIE, httpOnly: true, sameSite: 'Strict' });
    await shot('01-projects');

    // A shared link: the filter comes from the URL.
    await currentPage().goto(
      `${h.gateway.url}/console/projects/${p.id}/deliveries?status=Failure&endpoint_id=${billing._id}`,
    );
    await currentPage().locator('#deliveries tbody tr').nth(1).waitFor();
    const ids = await currentPage()
      .locator('#deliveries tbody tr')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')));
    expect(ids.sort()).toEqual([f1.delivery._id, f2.delivery._id].sort());
    expect(ids).not.toContain(ok.delivery._id);
    expect(await currentPage().locator('select[name="status"]').inputValue()).toBe('Failure');
    // the endpoint by its name, not its id
    const row = await currentPage().locator(`tr[data-id="${f1.delivery._id}"]`).innerText();
    expect(row).toContain('billing');
    expect(row).not.toContain(billing._id);
    await shot('02-deliveries-filtered');
    expect(await seriousViolations(currentPage())).toEqual([]);

    await currentPage()
      .locator(`tr[data-id="${f1.delivery._id}"]`)
      .getByRole('button', { name: 'Retry' })
      .click();
    await currentPage().locator('#toast', { hasText: 'Delivery retried' }).waitFor();
    expect((await h.store.deliveries.findById(p.id, f1.delivery._id))?.status).toBe('Scheduled');
    await waitFor('the resend message', () => sent.some((m) => m.delivery_id === f1.delivery._id));

    // Batch retry over the current filter: the other endpoint's failure is left alone.
    await currentPage().locator('#batch-retry').click();
    expect(await confirmDialog(currentPage())).toBe(
      `Retry 1 Failure deliveries with endpoint_id = ${billing._id} (up to 1,000 per run)?`,
    );
    await currentPage().locator('#toast', { hasText: 'Batch retry: 1 of 1' }).waitFor();
    expect((await h.store.deliveries.findById(p.id, f2.delivery._id))?.status).toBe('Scheduled');
    expect((await h.store.deliveries.findById(p.id, f3.delivery._id))?.status).toBe('Failure');
    await currentPage().locator('#empty', { hasText: 'Nothing matches these filters' }).waitFor();

    // The attempt's request and response.
    await currentPage().goto(`${h.gateway.url}/console/projects/${p.id}/deliveries/${f3.delivery._id}`);
    await currentPage().locator('section.attempt').waitFor();
    const attempt = await currentPage().locator('section.attempt').innerText();
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
      await currentPage().goto(`${h.gateway.url}/console/projects/${p.id}${path}`);
      await currentPage().locator('main', { hasText: text }).waitFor();
      expect(await currentPage().locator('main [role="alert"]').count()).toBe(0);
    }
    expect(errors()).toEqual([]);
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
    await currentPage().goto(`${h.gateway.url}/console/projects/${p.id}/meta-events`);
    await signIn(p.key);
    const row = currentPage().locator('#meta-events tr', { hasText: 'endpoint.created' });
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

    await currentPage().goto(`${h.gateway.url}/console`);
    await signIn(mine.key);
    await currentPage().waitForURL(`**/console/projects/${mine.id}`);
    await currentPage().locator('.stat').first().waitFor();

    // Live refresh: the overview picks up a new failure without a reload.
    await currentPage().goto(`${h.gateway.url}/console/projects/${mine.id}?live=5`);
    await currentPage().locator('main', { hasText: 'No failed deliveries' }).waitFor();
    const late = await seedDelivery(h.store, mine.id, ep._id, 'Failure');
    await currentPage().locator(`main tr[data-id="${late.delivery._id}"]`).waitFor();

    await currentPage().goto(`${h.gateway.url}/console/projects/${mine.id}/subscriptions`);
    await currentPage().locator('#tester-payload').waitFor();
    await currentPage().locator('#tester-payload').fill('{"type":"invoice.paid","amount":250}');
    await currentPage().locator('#tester-run').click();
    await currentPage().locator('#tester-result', { hasText: 'Match' }).waitFor();
    await currentPage().locator('#tester-payload').fill('{"type":"invoice.paid","amount":20}');
    await currentPage().locator('#tester-run').click();
    await currentPage().locator('#tester-result', { hasText: 'No match' }).waitFor();
    await shot('04-filter-tester');
    // Edit the filter from the tester: routing uses the saved one.
    await currentPage()
      .locator('#tester-filter')
      .fill('{"body": {"type": "invoice.paid", "amount": {"$gte": 10}}}');
    await currentPage().locator('#tester-save').click();
    expect(await confirmDialog(currentPage())).toBe('Replace the filter of subscription paid-only?');
    await currentPage().locator('#toast', { hasText: 'Filter saved' }).waitFor();
    await currentPage().locator('#subscriptions', { hasText: '"$gte": 10' }).waitFor(); // re-rendered
    const [saved] = await h.store.subscriptions.listByEndpoint(mine.id, ep._id);
    expect(JSON.parse(saved.filter_config.filter.body_json)).toEqual({
      type: 'invoice.paid',
      amount: { $gte: 10 },
    });
    // The function tester runs in the delivery sandbox.
    await currentPage().locator('#function-source').fill('function transform(p) { p.seen = true; return p }');
    await currentPage().locator('#function-payload').fill('{"a": 1}');
    await currentPage().locator('#function-run').click();
    await currentPage().locator('#function-result', { hasText: '"seen": true' }).waitFor();
    expect(await seriousViolations(currentPage())).toEqual([]);

    await currentPage().goto(`${h.gateway.url}/console/projects/${theirs.id}/endpoints`);
    await currentPage().locator('[role="alert"]', { hasText: 'does not belong to the project' }).waitFor();
    expect(await currentPage().locator('#endpoints').count()).toBe(0);

    await currentPage().getByRole('button', { name: 'Sign out' }).click();
    await currentPage().locator('#sign-in-note', { hasText: 'signed out' }).waitFor();
    expect(await currentPage().context().cookies()).toEqual([]);
  });

  it("shows an endpoint's failure rate as the API's percentage (93 %, not 9300 %) in the list and on its page", async () => {
    const p = await h.createProject();
    const ep = await seedEndpoint(h.store, p.id, 'acme', 'flaky', 'https://acme.example/flaky');
    await h.store.endpoints.update(p.id, ep._id, { failure_rate: 93 });
    const api = await h.call('GET', `/v1/projects/${p.id}/endpoints/${ep._id}`, { key: p.key });
    expect(api.body.data.failure_rate).toBe(93);

    await currentPage().goto(`${h.gateway.url}/console/projects/${p.id}/endpoints`);
    await signIn(p.key);
    const row = currentPage().locator('#endpoints tbody tr', { hasText: 'flaky' });
    await row.waitFor();
    const column = await currentPage()
      .locator('#endpoints thead th')
      .evaluateAll((ths) => ths.map((th) => (th as unknown as { textContent: string }).textContent.trim()));
    const rate = row.locator('td').nth(column.indexOf('Failure rate'));
    expect(await rate.innerText()).toBe('93 %');
    expect(await seriousViolations(currentPage())).toEqual([]);

    await row.getByRole('link', { name: 'flaky' }).click();
    await currentPage().getByRole('heading', { name: 'Endpoint flaky', exact: true }).waitFor();
    const summary = await currentPage().locator('section.card').first().innerText();
    expect(summary).toContain('failure rate 93 %');
    expect(summary).not.toContain('9300');
    expect(errors()).toEqual([]);
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

    await currentPage().goto(`${h.gateway.url}/console`);
    await signIn(p.key);
    await currentPage().locator('#stats-summary', { hasText: '7 succeeded' }).waitFor();
    expect(await currentPage().locator('#stats-summary').innerText()).toMatch(
      /1 failed.*p50 \d+ ms, p95 \d+ ms/,
    );
    expect(await currentPage().locator('#retry-backlog').innerText()).toBe('1');
    // uPlot draws on a canvas; the chart's data table (collapsed) holds the steps with counts.
    expect(await currentPage().locator('#chart-outcomes canvas').count()).toBe(1);
    expect(await currentPage().locator('#chart-latency canvas').count()).toBe(1);
    expect(
      await currentPage().locator('#chart-outcomes-data td[data-series="Success"]').allTextContents(),
    ).toEqual(['7']);
    expect(
      await currentPage().locator('#chart-outcomes-data td[data-series="Failure"]').allTextContents(),
    ).toEqual(['1']);
    expect(
      await currentPage().locator('#chart-latency-data td[data-series="p95_ms"]').allTextContents(),
    ).toEqual([expect.stringMatching(/^\d+ ms$/)]);
    expect(await currentPage().locator('#chart-outcomes').getAttribute('aria-label')).toContain(
      '7 succeeded',
    );
    await shot('06-overview-charts');
    expect(await seriousViolations(currentPage())).toEqual([]);

    // An endpoint's page, last day, live: new counts appear without a reload.
    await currentPage().goto(
      `${h.gateway.url}/console/projects/${p.id}/endpoints/${ep._id}?window=day&live=5`,
    );
    await currentPage().locator('#stats-summary', { hasText: 'Last day: 7 succeeded' }).waitFor();
    expect(await currentPage().locator('a.tab[aria-current="true"]').innerText()).toBe('Last day');
    await count({ Success: 5 }, { 2: 5 });
    await currentPage()
      .locator('#stats-summary', { hasText: 'Last day: 12 succeeded' })
      .waitFor({ timeout: 20_000 });
    await shot('07-endpoint-charts');
    expect(errors()).toEqual([]);
  });

  it('an expired session shows its own page and signing in again returns to the same link', async () => {
    const p = await h.createProject();
    const old = await signSession(
      principalClaims({ via: 'key', kind: 'admin' }, new Date(Date.now() - 3600_000)),
      sessionSecret(ENCRYPTION_KEY, ADMIN_KEY),
    );
    await currentPage()
      .context()
      .addCookies([{ name: SESSION_COOKIE, value: old, url: h.gateway.url }]);
    await currentPage().goto(`${h.gateway.url}/console/projects/${p.id}/events?event_type=invoice.paid`);
    await currentPage().getByRole('heading', { name: 'Session expired' }).waitFor();
    expect(await currentPage().locator('#sign-in-note').innerText()).toMatch(/console session expired/);
    await shot('05-expired');
    expect(await seriousViolations(currentPage())).toEqual([]);

    await signIn(ADMIN_KEY);
    await currentPage().locator('#empty', { hasText: 'Nothing matches these filters' }).waitFor();
    expect(currentPage().url()).toContain(`/console/projects/${p.id}/events?event_type=invoice.paid`);
    expect(await currentPage().locator('input[name="event_type"]').inputValue()).toBe('invoice.paid');
  });

  it('keyboard alone: signs in from the focused key field and answers a confirmation (Escape cancels)', async () => {
    const p = await h.createProject();
    const ep = await seedEndpoint(h.store, p.id, 'acme', 'keys', 'https://acme.example/keys');
    const secrets = async () => (await h.store.endpoints.findById(p.id, ep._id))?.secrets?.length;
    const before = await secrets();

    await currentPage().goto(`${h.gateway.url}/console/projects/${p.id}/endpoints/${ep._id}`);
    await currentPage().getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await currentPage().evaluate('document.activeElement.id')).toBe('key');
    await currentPage().keyboard.type(p.key);
    await currentPage().keyboard.press('Enter');
    await currentPage().getByRole('heading', { name: 'Endpoint keys' }).waitFor();

    const roll = currentPage().getByRole('button', { name: 'Roll secret' });
    await roll.focus();
    await currentPage().keyboard.press('Enter');
    await currentPage().locator('dialog#confirm[open]').waitFor();
    // the dialog takes the focus (on its confirm button); Escape closes it and nothing is done
    expect(await currentPage().evaluate('document.activeElement.closest("dialog")?.id')).toBe('confirm');
    await currentPage().keyboard.press('Escape');
    await currentPage().locator('dialog#confirm[open]').waitFor({ state: 'detached' });
    expect(await secrets()).toBe(before);

    await roll.focus();
    await currentPage().keyboard.press('Enter');
    await currentPage().locator('dialog#confirm[open]').waitFor();
    await currentPage().keyboard.press('Enter');
    await currentPage().locator('#toast', { hasText: 'Secret rolled' }).waitFor();
    expect(await secrets()).toBe(before! + 1);
    expect(errors()).toEqual([]);
  });
});
