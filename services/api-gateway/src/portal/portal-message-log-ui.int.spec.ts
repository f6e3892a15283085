import type { Page } from 'playwright-core';
import { newId } from '@hookrail/domain';
import { makeDelivery, makeEvent, waitFor } from '@hookrail/testkit';
import { GatewayHarness } from '../testing/gateway-harness';
import { gatewayAndChromium, screenshot, seriousViolations } from './testing/portal-browser';
import { seedEndpoint, seedLink } from './testing/portal-fixtures';

/**
 * The portal's message log in a real headless Chromium (issue 33, items 10 and 11): empty states
 * that say what to do next, time pickers and payload search, the request body in the attempt view,
 * and the event types an endpoint receives edited in its form.
 */
describe('portal page: message log filters, empty states, event types', () => {
  const h = new GatewayHarness();
  let page: Page;

  const browser = gatewayAndChromium(h);
  beforeEach(async () => {
    page = await browser().newPage({ viewport: { width: 1300, height: 900 } });
  });
  afterEach(async () => page?.close());

  const shot = (name: string) => screenshot(page, name);

  it('tells a new customer to add an endpoint, then what the message log will show', async () => {
    const p = await h.createProject();
    const { token } = await seedLink(h.store, p.id, { owner_id: 'acme', can_manage_endpoint: true });
    await page.goto(`${h.gateway.url}/portal?token=${token}`);
    await page.locator('#endpoints', { hasText: 'No endpoints yet. Add one above' }).waitFor();
    await page.locator('#deliveries', { hasText: 'add an endpoint first' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await shot('log-01-empty');

    await page.fill('#create-form input[name="name"]', 'orders');
    await page.fill('#create-form input[name="url"]', 'https://acme.example/orders');
    await page.click('#create-form button[type="submit"]');
    await page.locator('#notice', { hasText: 'Endpoint added' }).waitFor();
    await page.locator('#deliveries', { hasText: 'send a test event from an endpoint' }).waitFor();

    // A read-only link cannot add one: it is told whom to ask.
    const other = await h.createProject();
    const ro = await seedLink(h.store, other.id, { owner_id: 'acme' });
    await page.goto(`${h.gateway.url}/portal?token=${ro.token}`);
    await page.locator('#endpoints', { hasText: 'Ask your provider' }).waitFor();
  });

  it('searches the payloads, picks a time window, and shows the request body sent in the attempt', async () => {
    const p = await h.createProject();
    const billing = await seedEndpoint(h.store, p.id, 'acme', 'billing');
    const seed = async (raw: string) => {
      const event = await makeEvent(h.store, p.id, {
        raw,
        endpoints: [billing._id],
        target: { mode: 'single', endpoint_id: billing._id },
      });
      return makeDelivery(h.store, p.id, {
        event_id: event._id,
        endpoint_id: billing._id,
        status: 'Success',
        attempts_made: 1,
        attempts: [
          {
            uid: newId(),
            url: 'https://acme.example/billing',
            method: 'POST',
            request_headers_json: '{}',
            response_headers_json: '{}',
            http_status: 200,
            response_data: 'ok',
            error: null,
            latency_ms: 5,
            created_at: new Date(),
          },
        ],
      });
    };
    const paid = await seed('{"invoice":"INV-7","state":"paid"}');
    await seed('{"invoice":"INV-8","state":"failed"}');
    const { token } = await seedLink(h.store, p.id, { owner_id: 'acme' });
    const listed: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/portal-api/eventdeliveries?')) listed.push(decodeURIComponent(r.url()));
    });
    await page.goto(`${h.gateway.url}/portal?token=${token}`);
    await page.locator('#deliveries tr[data-delivery]').nth(1).waitFor();

    await page.fill('#delivery-filters input[name="query"]', 'inv-7 PAID');
    await page.click('#delivery-filters button[type="submit"]');
    await waitRows(1);
    expect(await page.locator(`tr[data-delivery="${paid._id}"]`).count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);

    await page.locator(`tr[data-delivery="${paid._id}"] td`).first().click();
    await page.locator('#detail .request-body', { hasText: '"invoice": "INV-7"' }).waitFor();
    await shot('log-02-search-request-body');

    // Picked in local time, sent as an ISO timestamp.
    await page.fill('#delivery-filters input[name="query"]', '');
    await page.fill('#delivery-filters input[name="endDate"]', '2020-01-01T00:00');
    await page.click('#delivery-filters button[type="submit"]');
    await page.locator('#deliveries', { hasText: 'No deliveries match these filters.' }).waitFor();
    const last = listed[listed.length - 1];
    expect(last).toMatch(/endDate=2019-12-3\dT\d\d:\d\d:00\.000Z|endDate=2020-01-01T\d\d:00:00\.000Z/);
    expect(last).not.toContain('query=');

    await page.fill('#delivery-filters input[name="endDate"]', '');
    const from = new Date(Date.now() - 3600_000);
    const pad = (n: number) => String(n).padStart(2, '0');
    await page.fill(
      '#delivery-filters input[name="startDate"]',
      `${from.getFullYear()}-${pad(from.getMonth() + 1)}-${pad(from.getDate())}T${pad(from.getHours())}:${pad(from.getMinutes())}`,
    );
    await page.click('#delivery-filters button[type="submit"]');
    await waitRows(2);
    await shot('log-03-time-window');
  });

  it('edits the event types an endpoint receives, with the API field error beside the field', async () => {
    const p = await h.createProject();
    const { token } = await seedLink(h.store, p.id, { owner_id: 'acme', can_manage_endpoint: true });
    const created = await h.portal('POST', '/endpoints', token, {
      name: 'invoices',
      url: 'https://acme.example/invoices',
      event_types: ['invoice.paid'],
    });
    const id = created.body.data.uid as string;
    await page.goto(`${h.gateway.url}/portal?token=${token}`);
    await page.locator(`tr[data-endpoint="${id}"] td`).first().click();
    await page.locator('#edit-endpoint').waitFor();
    expect(await page.inputValue('#edit-endpoint input[name="event_types"]')).toBe('invoice.paid');
    expect(await seriousViolations(page)).toEqual([]);

    await page.fill('#edit-endpoint input[name="event_types"]', 'invoice.paid, invoice.failed');
    await page.click('#edit-endpoint button[type="submit"]');
    await page.locator('#notice', { hasText: 'Endpoint saved' }).waitFor();
    await page
      .locator('#endpoint-detail', { hasText: 'Event types: invoice.paid, invoice.failed' })
      .waitFor();
    const [sub] = await h.store.subscriptions.listByEndpoint(p.id, id);
    expect(sub.filter_config?.event_types).toEqual(['invoice.paid', 'invoice.failed']);
    await shot('log-04-event-types-edited');

    await page.fill('#edit-endpoint input[name="url"]', 'not a url');
    await page.click('#edit-endpoint button[type="submit"]');
    await page.locator('#edit-endpoint .field-error').first().waitFor();
  });

  // (the page's CSP allows no string evaluation: counted from here)
  const waitRows = (n: number) =>
    waitFor(
      `${n} delivery rows`,
      async () => (await page.locator('#deliveries tr[data-delivery]').count()) === n,
    );
});
