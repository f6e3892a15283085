import type { BrowserContext, Page } from 'playwright-core';
import { GatewayHarness } from '../testing/gateway-harness';
import { gatewayAndChromium, screenshot } from './testing/portal-browser';
import { seedEndpoint, seedLink } from './testing/portal-fixtures';

interface PortalSecret {
  uid: string;
  value: string;
  expires_at: string | null;
}

/** A browser without the async clipboard API; the test keeps a handle to read what was copied. */
const HIDE_CLIPBOARD_API = `
  const get = Object.getOwnPropertyDescriptor(Navigator.prototype, 'clipboard').get;
  window.realClipboard = () => get.call(navigator);
  Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined, configurable: true });
`;

/** Secrets and endpoint state on the portal page, in a real headless Chromium. */
describe('portal page: signing secrets and endpoint state', () => {
  const h = new GatewayHarness();
  let context: BrowserContext;
  let page: Page;

  const browser = gatewayAndChromium(h);
  afterEach(async () => context?.close());

  async function open(token: string, opts: { noClipboardApi?: boolean } = {}) {
    context = await browser().newContext({
      viewport: { width: 1300, height: 900 },
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    if (opts.noClipboardApi) await context.addInitScript(HIDE_CLIPBOARD_API);
    page = await context.newPage();
    await page.goto(`${h.gateway.url}/portal?token=${token}`);
    await page.locator('#endpoints tr').first().waitFor();
  }

  async function portal(token: string, method: string, path: string, body?: unknown) {
    const res = await h.portal(method, path, token, body);
    return { status: res.status, data: res.body.data };
  }
  const secretsOf = async (token: string, id: string): Promise<PortalSecret[]> =>
    (await portal(token, 'GET', `/endpoints/${id}`)).data.secrets;

  const secretRow = (uid: string) => page.locator(`#endpoint-detail .secret[data-secret="${uid}"]`);
  const shownValue = (uid: string) => secretRow(uid).locator('.secret-value').innerText();
  // Page-side code as strings: this package's TypeScript has no DOM types.
  const clipboard = () => page.evaluate<string>('navigator.clipboard.readText()');

  it('adds an endpoint with picked event types, reveals and copies its secret, and rolls it (the old one showing its expiry)', async () => {
    const p = await h.createProject();
    const { token } = await seedLink(h.store, p.id, { owner_id: 'acme', can_manage_endpoint: true });
    await open(token);
    await page.fill('#create-form input[name="name"]', 'billing');
    await page.fill('#create-form input[name="url"]', 'https://acme.example/hooks/billing');
    await page.fill('#create-form input[name="event_types"]', 'invoice.paid, invoice.voided');
    await page.click('#create-form button[type="submit"]');
    await page.locator('#endpoints tr', { hasText: 'billing' }).waitFor();
    const [created] = await h.store.endpoints.listByOwner(p.id, 'acme');
    const [sub] = await h.store.subscriptions.listByEndpoint(p.id, created._id);
    expect(sub.filter_config.event_types).toEqual(['invoice.paid', 'invoice.voided']);

    const [first] = await secretsOf(token, created._id);
    await page.locator(`tr[data-endpoint="${created._id}"]`).getByRole('button', { name: 'Secrets' }).click();
    await secretRow(first.uid).waitFor();
    expect(await page.locator('#endpoint-detail').innerText()).toContain(
      'Event types: invoice.paid, invoice.voided',
    );
    // Hidden by default: the value is nowhere on the page until revealed.
    expect(await page.locator('body').innerText()).not.toContain(first.value);
    await secretRow(first.uid).getByRole('button', { name: 'Reveal' }).click();
    expect(await shownValue(first.uid)).toBe(first.value);
    await secretRow(first.uid).getByRole('button', { name: 'Copy' }).click();
    await page.locator('#notice', { hasText: 'Secret copied' }).waitFor();
    expect(await clipboard()).toBe(first.value);
    await secretRow(first.uid).getByRole('button', { name: 'Hide' }).click();
    expect(await shownValue(first.uid)).not.toContain(first.value);

    await page.selectOption('#roll-expiration', '86400');
    await page.getByRole('button', { name: 'Roll secret' }).click();
    await page.locator('#notice', { hasText: 'Secret rolled; the old one expires in 24 hours' }).waitFor();
    const [old, next] = await secretsOf(token, created._id);
    expect(old.uid).toBe(first.uid);
    expect(next.value).not.toBe(first.value);
    expect(Date.parse(old.expires_at!) - Date.now()).toBeGreaterThan(23 * 3600_000);
    const expiry = await page.evaluate((ts) => `expires ${new Date(ts).toLocaleString()}`, old.expires_at!);
    expect(await secretRow(old.uid).locator('.secret-expiry').innerText()).toBe(expiry);
    expect(await secretRow(next.uid).locator('.secret-expiry').innerText()).toBe('current');
    await secretRow(next.uid).getByRole('button', { name: 'Reveal' }).click();
    expect(await shownValue(next.uid)).toBe(next.value);
    await screenshot(page, '10-secret-rolled');
  });

  it('lets a read-only link reveal and copy (without the clipboard API) but not roll a secret', async () => {
    const p = await h.createProject();
    const manage = await seedLink(h.store, p.id, { owner_id: 'acme', can_manage_endpoint: true });
    const created = await portal(manage.token, 'POST', '/endpoints', {
      name: 'orders',
      url: 'https://acme.example/hooks/orders',
    });
    const id = created.data.uid as string;
    const { token } = await seedLink(h.store, p.id, { owner_id: 'acme' });
    const [secret] = await secretsOf(token, id);

    await open(token, { noClipboardApi: true });
    await page.locator(`tr[data-endpoint="${id}"]`).click();
    await secretRow(secret.uid).getByRole('button', { name: 'Reveal' }).click();
    expect(await shownValue(secret.uid)).toBe(secret.value);
    await secretRow(secret.uid).getByRole('button', { name: 'Copy' }).click();
    await page.locator('#notice', { hasText: 'Secret copied' }).waitFor();
    expect(await page.evaluate<string>('typeof navigator.clipboard')).toBe('undefined');
    expect(await page.evaluate<string>('realClipboard().readText()')).toBe(secret.value);
    expect(await page.getByRole('button', { name: 'Roll secret' }).count()).toBe(0);
    expect(await page.locator('#roll-expiration').count()).toBe(0);
    await screenshot(page, '11-read-only-secret');

    const roll = await portal(token, 'PUT', `/endpoints/${id}/expire_secret`, { expiration: 3600 });
    expect(roll.status).toBe(403);
    expect(await secretsOf(token, id)).toEqual([secret]);
  });

  it('badges an open or half-open circuit breaker with its reason, and shows why an endpoint was paused', async () => {
    const p = await h.createProject();
    const orders = await seedEndpoint(h.store, p.id, 'acme', 'orders', 'https://acme.example/hooks/orders');
    const refunds = await seedEndpoint(
      h.store,
      p.id,
      'acme',
      'refunds',
      'https://acme.example/hooks/refunds',
    );
    const billing = await seedEndpoint(
      h.store,
      p.id,
      'acme',
      'billing',
      'https://acme.example/hooks/billing',
    );
    const since = new Date();
    await h.store.endpoints.setBreakerState(p.id, orders._id, {
      state: 'open',
      reason: '10 consecutive failures',
      since,
    });
    await h.store.endpoints.setBreakerState(p.id, refunds._id, {
      state: 'half_open',
      reason: 'probe delivery on its way',
      since,
    });
    await h.store.endpoints.update(p.id, orders._id, { events: 7 });
    const { token } = await seedLink(h.store, p.id, { owner_id: 'acme', can_manage_endpoint: true });
    await open(token);

    const row = (id: string) => page.locator(`tr[data-endpoint="${id}"]`);
    await row(orders._id).locator('.badge[data-breaker="open"]', { hasText: 'circuit open' }).waitFor();
    expect(await row(orders._id).innerText()).toContain('10 consecutive failures');
    expect(await row(orders._id).locator('td').nth(3).innerText()).toBe('7');
    expect(await row(refunds._id).locator('.badge[data-breaker="half_open"]').innerText()).toBe(
      'circuit half-open',
    );
    expect(await row(refunds._id).innerText()).toContain('probe delivery on its way');
    expect(await row(billing._id).locator('.badge[data-breaker]').count()).toBe(0);
    await row(orders._id).click();
    const sinceText = await page.evaluate((ts) => new Date(ts).toLocaleString(), since.toISOString());
    await page
      .locator('#endpoint-detail', {
        hasText: `Circuit breaker open since ${sinceText}: 10 consecutive failures`,
      })
      .waitFor();
    await screenshot(page, '12-breaker-open');

    await row(billing._id).getByRole('button', { name: 'Pause' }).click();
    await row(billing._id).locator('.reason', { hasText: 'paused through the portal' }).waitFor();
    expect(await row(billing._id).locator('.badge').first().innerText()).toBe('paused');
    expect((await portal(token, 'GET', `/endpoints/${billing._id}`)).data.status_reason).toBe(
      'paused through the portal',
    );
    await row(billing._id).click();
    await page
      .locator('#endpoint-detail', { hasText: 'Status: paused (paused through the portal)' })
      .waitFor();
    await screenshot(page, '13-paused-reason');

    await row(billing._id).getByRole('button', { name: 'Activate' }).click();
    await row(billing._id).locator('.badge', { hasText: 'active' }).waitFor();
    expect(await row(billing._id).locator('.reason').count()).toBe(0);
  });
});
