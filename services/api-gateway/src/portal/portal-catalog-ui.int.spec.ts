import type { BrowserContext, Page } from 'playwright-core';
import { GatewayHarness } from '../testing/gateway-harness';
import { gatewayAndChromium, screenshot, seriousViolations } from './testing/portal-browser';
import { seedLink } from './testing/portal-fixtures';

const PAID_SCHEMA = {
  type: 'object',
  required: ['invoice_id', 'amount'],
  properties: { invoice_id: { type: 'string' }, amount: { type: 'integer', minimum: 0 } },
};

/** The project's event catalog as an end customer sees it in the portal, in a real headless Chromium. */
describe('portal page: the event catalog', () => {
  const h = new GatewayHarness();
  let context: BrowserContext;
  let page: Page;
  const browser = gatewayAndChromium(h);
  afterEach(async () => context?.close());

  async function catalogProject() {
    const p = await h.createProject();
    const add = async (body: Record<string, unknown>) => {
      const res = await h.call('POST', `/v1/projects/${p.id}/event-types`, { key: p.key, body });
      expect(res.status).toBe(201);
      return res.body.data as { uid: string };
    };
    await add({
      name: 'invoice.paid',
      description: 'An invoice was paid in full',
      category: 'billing',
      json_schema: PAID_SCHEMA,
      example: { invoice_id: 'inv_42', amount: 1200 },
    });
    await add({ name: 'invoice.voided', description: 'An invoice was cancelled', category: 'billing' });
    const legacy = await add({ name: 'legacy.ping', description: 'Old heartbeat' });
    const deprecated = await h.call('POST', `/v1/projects/${p.id}/event-types/${legacy.uid}/deprecate`, {
      key: p.key,
    });
    expect(deprecated.status).toBe(200);
    return p;
  }

  async function open(token: string) {
    context = await browser().newContext({ viewport: { width: 1300, height: 900 } });
    page = await context.newPage();
    await page.goto(`${h.gateway.url}/portal?token=${token}`);
    await page.locator('#endpoints-section').waitFor();
  }

  it('the portal API lists the current types with their examples and schemas, none deprecated, none of another project', async () => {
    const p = await catalogProject();
    const other = await h.createProject();
    await h.call('POST', `/v1/projects/${other.id}/event-types`, {
      key: other.key,
      body: { name: 'other.thing' },
    });
    const { token } = await seedLink(h.store, p.id, { owner_id: 'acme' });
    const res = await h.portal('GET', '/event-catalog', token);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      {
        name: 'invoice.paid',
        description: 'An invoice was paid in full',
        category: 'billing',
        json_schema: PAID_SCHEMA,
        example: { invoice_id: 'inv_42', amount: 1200 },
      },
      {
        name: 'invoice.voided',
        description: 'An invoice was cancelled',
        category: 'billing',
        json_schema: null,
        example: null,
      },
    ]);
    expect((await h.portal('GET', '/event-catalog', 'not-a-token')).status).toBe(401);
  });

  it('shows each type with its description, example payload and schema, and picks types for a new and an edited endpoint', async () => {
    const p = await catalogProject();
    const { token } = await seedLink(h.store, p.id, { owner_id: 'acme', can_manage_endpoint: true });
    await open(token);

    const entries = page.locator('#event-catalog li');
    expect(await entries.evaluateAll((els) => els.map((e) => e.getAttribute('data-type')))).toEqual([
      'invoice.paid',
      'invoice.voided',
    ]);
    const paid = page.locator('#event-catalog li[data-type="invoice.paid"]');
    expect(await paid.locator('summary').innerText()).toContain('An invoice was paid in full');
    await paid.locator('summary').click();
    const shown = await paid.innerText();
    expect(shown).toContain('Example payload');
    expect(shown).toContain('"inv_42"');
    expect(shown).toContain('Schema of data');
    expect(shown).toContain('"minimum": 0');
    expect(await page.locator('#event-catalog').innerText()).not.toContain('legacy.ping');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'catalog-01-shown');

    // Create: tick a type from the catalog, type a pattern beside it.
    await page.fill('#create-form input[name="name"]', 'billing');
    await page.fill('#create-form input[name="url"]', 'https://acme.example/hooks/billing');
    await page.locator('#create-form-catalog').getByLabel('invoice.paid').check();
    expect(await page.inputValue('#create-form input[name="event_types"]')).toBe('invoice.paid');
    await page.fill('#create-form input[name="event_types"]', 'invoice.paid, refund.*');
    expect(await page.locator('#create-form-catalog').getByLabel('invoice.paid').isChecked()).toBe(true);
    await page.click('#create-form button[type="submit"]');
    await page.locator('#endpoints tr', { hasText: 'billing' }).waitFor();
    const [created] = await h.store.endpoints.listByOwner(p.id, 'acme');
    const typesOf = async () =>
      (await h.store.subscriptions.listByEndpoint(p.id, created._id))[0].filter_config.event_types;
    expect(await typesOf()).toEqual(['invoice.paid', 'refund.*']);
    expect(await page.inputValue('#create-form input[name="event_types"]')).toBe('');

    // Edit: untick one, tick the other.
    await page.locator(`tr[data-endpoint="${created._id}"]`).click();
    const picker = page.locator('#edit-endpoint-event_types-catalog');
    await picker.getByLabel('invoice.paid').uncheck();
    await picker.getByLabel('invoice.voided').check();
    expect(await page.inputValue('#edit-endpoint input[name="event_types"]')).toBe(
      'refund.*, invoice.voided',
    );
    await page.click('#edit-endpoint button[type="submit"]');
    await page.locator('#notice', { hasText: 'Endpoint saved' }).waitFor();
    expect(await typesOf()).toEqual(['refund.*', 'invoice.voided']);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'catalog-02-picked');
  });

  it('shows no catalog section and no choices when the project keeps no catalog', async () => {
    const p = await h.createProject();
    const { token } = await seedLink(h.store, p.id, { owner_id: 'acme', can_manage_endpoint: true });
    await open(token);
    expect(await page.locator('#event-catalog-section').count()).toBe(0);
    expect(await page.locator('#create-form-catalog').count()).toBe(0);
    expect(await page.locator('#event-types-section').count()).toBe(1);
  });
});
