import { ADMIN_KEY, GatewayHarness } from '../testing/gateway-harness';
import { gatewayAndChromium, pagePerTest, seriousViolations } from '../portal/testing/portal-browser';
import { seedDelivery } from '../portal/testing/portal-fixtures';

jest.setTimeout(180_000);

/**
 * Accessibility of every page of the console and of the portal's views, each loaded with content
 * (a project with one resource of each kind): axe-core finds no serious or critical violation.
 * The feature specs check the pages they drive in their states; this one misses none.
 */
describe('axe on every console page and the portal views (real headless Chromium)', () => {
  const h = new GatewayHarness();
  const browser = gatewayAndChromium(h);
  const { page: currentPage, errors } = pagePerTest(browser);

  /** Opens a page and waits until it has its heading and nothing is loading any more. */
  async function settled(path: string) {
    await currentPage().goto(`${h.gateway.url}${path}`);
    await currentPage().locator('main h1').first().waitFor();
    await currentPage().waitForLoadState('networkidle');
    await currentPage().getByText('Loading…').first().waitFor({ state: 'detached' });
  }

  it('finds no serious violation on any console page, each with content', async () => {
    const p = await h.createProject();
    const call = async (path: string, body: unknown) => {
      const res = await h.call('POST', `/v1/projects/${p.id}${path}`, { key: p.key, body });
      expect(res.status).toBe(201);
      return res.body.data as { uid: string };
    };
    const endpoint = await call('/endpoints', {
      name: 'billing',
      url: 'https://acme.example/billing',
      owner_id: 'acme',
    });
    const source = await call('/sources', { name: 'shop', type: 'http' });
    const subscription = await call('/subscriptions', {
      name: 'shop-to-billing',
      source_id: source.uid,
      endpoint_id: endpoint.uid,
    });
    await call('/portal-links', { name: 'acme portal', owner_id: 'acme' });
    const { delivery } = await seedDelivery(h.store, p.id, endpoint.uid, 'Failure');

    // the admin sees the projects page (and its new project form) as well
    await currentPage().goto(`${h.gateway.url}/console`);
    await currentPage().locator('#key').fill(ADMIN_KEY);
    await currentPage().getByRole('button', { name: 'Sign in' }).click();
    await currentPage().locator(`#projects a[href="/console/projects/${p.id}"]`).waitFor();

    const base = `/console/projects/${p.id}`;
    const pages = [
      '/console',
      base,
      `${base}/endpoints`,
      `${base}/endpoints/new`,
      `${base}/endpoints/${endpoint.uid}`,
      `${base}/endpoints/${endpoint.uid}/edit`,
      `${base}/events`,
      `${base}/events/new`,
      `${base}/events/${delivery.event_id}`,
      `${base}/deliveries`,
      `${base}/deliveries/${delivery._id}`,
      `${base}/sources`,
      `${base}/sources/new`,
      `${base}/sources/${source.uid}`,
      `${base}/subscriptions`,
      `${base}/subscriptions/new`,
      `${base}/subscriptions/${subscription.uid}`,
      `${base}/portal-links`,
      `${base}/meta-events`,
      `${base}/settings`,
    ];
    const found: Record<string, string[]> = {};
    for (const path of pages) {
      await settled(path);
      expect({ path, alert: await currentPage().locator('main .alert').count() }).toEqual({ path, alert: 0 });
      const violations = await seriousViolations(currentPage());
      if (violations.length > 0) found[path] = violations;
    }
    // the broker kinds of the source form and the OAuth2 part of the endpoint form
    await settled(`${base}/sources/new`);
    await currentPage().locator('#source-form-type').selectOption('pub_sub');
    for (const kind of ['amqp', 'kafka', 'sqs', 'google']) {
      await currentPage().locator('#source-form-pub_sub-type').selectOption(kind);
      const violations = await seriousViolations(currentPage());
      if (violations.length > 0) found[`${base}/sources/new (${kind})`] = violations;
    }
    await settled(`${base}/endpoints/new`);
    await currentPage().locator('#endpoint-form-authentication-type').selectOption('oauth2');
    const oauth2 = await seriousViolations(currentPage());
    if (oauth2.length > 0) found[`${base}/endpoints/new (oauth2)`] = oauth2;
    expect(found).toEqual({});
    expect(errors()).toEqual([]);
  });

  it('finds no serious violation in the portal: its page, a delivery opened, the endpoint form', async () => {
    const p = await h.createProject();
    const endpoint = await h.call('POST', `/v1/projects/${p.id}/endpoints`, {
      key: p.key,
      body: { name: 'orders', url: 'https://acme.example/orders', owner_id: 'acme' },
    });
    const { delivery } = await seedDelivery(h.store, p.id, endpoint.body.data.uid, 'Failure');
    const link = await h.call('POST', `/v1/projects/${p.id}/portal-links`, {
      key: p.key,
      body: { name: 'acme portal', owner_id: 'acme', can_manage_endpoint: true },
    });
    expect(link.status).toBe(201);
    const page = currentPage();
    await page.goto(link.body.data.url.replace(/^https?:\/\/[^/]+/, h.gateway.url));
    await page.locator(`tr[data-delivery="${delivery._id}"]`).waitFor();
    const found: Record<string, string[]> = {};
    const check = async (state: string) => {
      const violations = await seriousViolations(page);
      if (violations.length > 0) found[state] = violations;
    };
    await check('page');
    await page.locator(`tr[data-delivery="${delivery._id}"]`).click();
    await page.locator('#detail:not([hidden]) pre').first().waitFor();
    await check('delivery opened');
    await page.locator('#create-form').waitFor();
    await page.locator('tr[data-endpoint]').first().click();
    await page.locator('#endpoint-detail #edit-endpoint').waitFor();
    await check('endpoint opened, its edit form');
    expect(found).toEqual({});
    expect(errors()).toEqual([]);
  });
});
