import type { Page } from 'playwright-core';
import { newId } from '@hookrail/domain';
import { makeDelivery, makeEvent, waitFor } from '@hookrail/testkit';
import { GatewayHarness } from '../testing/gateway-harness';
import { confirmDialog, gatewayAndChromium, screenshot, seriousViolations } from './testing/portal-browser';
import { seedDelivery, seedEndpoint, seedLink } from './testing/portal-fixtures';

describe('portal page in a real headless Chromium', () => {
  const h = new GatewayHarness();
  let page: Page;

  const browser = gatewayAndChromium(h);
  beforeEach(async () => {
    page = await browser().newPage({ viewport: { width: 1200, height: 900 } });
  });
  afterEach(async () => page?.close());

  const shot = (name: string) => screenshot(page, name);

  it('shows a customer their endpoints and deliveries, attempt details, and retries a failed delivery', async () => {
    const p = await h.createProject();
    const billing = await seedEndpoint(
      h.store,
      p.id,
      'acme',
      'billing',
      'https://acme.example/hooks/billing',
    );
    await seedEndpoint(h.store, p.id, 'acme', 'shipping', 'https://acme.example/hooks/shipping');
    const hidden = await seedEndpoint(h.store, p.id, 'globex', 'globex-secret-endpoint');
    await h.store.endpoints.update(p.id, billing._id, { status: 'paused' });
    await seedDelivery(h.store, p.id, billing._id, 'Success');
    const failed = await seedDelivery(h.store, p.id, billing._id, 'Failure');
    await seedDelivery(h.store, p.id, hidden._id, 'Failure');
    const { token } = await seedLink(h.store, p.id, { owner_id: 'acme' });

    await page.goto(`${h.gateway.url}/portal?token=${token}`);
    await page.locator('#endpoints tr[data-endpoint]').nth(1).waitFor();
    expect(await page.locator('#endpoints tr[data-endpoint]').count()).toBe(2);
    const text = await page.locator('main').innerText();
    expect(text).toContain('billing');
    expect(text).toContain('paused');
    expect(text).not.toContain('globex-secret-endpoint');
    expect(await page.locator('#deliveries tr[data-delivery]').count()).toBe(2);
    // Read-only link: no management controls.
    expect(await page.locator('#create-form').isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Pause' }).count()).toBe(0);
    await shot('01-overview');

    await page.locator(`tr[data-delivery="${failed.delivery._id}"]`).click();
    await page.locator('#detail:not([hidden]) pre').first().waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    const detail = await page.locator('#detail').innerText();
    expect(detail).toContain('HTTP 500');
    expect(detail).toContain('boom');
    expect(detail).toContain('x-r');
    await shot('02-attempt-detail');

    await page
      .locator(`tr[data-delivery="${failed.delivery._id}"]`)
      .getByRole('button', { name: 'Retry', exact: true })
      .click();
    await page.locator('#notice', { hasText: 'Delivery retried' }).waitFor();
    expect((await h.store.deliveries.findById(p.id, failed.delivery._id))?.status).toBe('Scheduled');
    await page
      .locator(`tr[data-delivery="${failed.delivery._id}"] .badge`, { hasText: 'Scheduled' })
      .waitFor();
    await shot('03-resent');
  });

  it('lets a managing customer add, pause and delete an endpoint from the page', async () => {
    const p = await h.createProject();
    await seedEndpoint(h.store, p.id, 'acme', 'orders', 'https://acme.example/hooks/orders');
    const { token } = await seedLink(h.store, p.id, { owner_id: 'acme', can_manage_endpoint: true });

    await page.goto(`${h.gateway.url}/portal?token=${token}`);
    await page.locator('#create-form').waitFor();
    await page.fill('#create-form input[name="name"]', 'invoices');
    await page.fill('#create-form input[name="url"]', 'https://acme.example/hooks/invoices');
    await page.click('#create-form button[type="submit"]');
    await page.locator('#endpoints tr', { hasText: 'invoices' }).waitFor();
    const created = (await h.store.endpoints.listByOwner(p.id, 'acme')).find((e) => e.name === 'invoices');
    expect(created?.owner_id).toBe('acme');

    const row = page.locator(`tr[data-endpoint="${created!._id}"]`);
    await row.getByRole('button', { name: 'Pause' }).click();
    await row.locator('.badge', { hasText: 'paused' }).waitFor();
    expect((await h.store.endpoints.findById(p.id, created!._id))?.status).toBe('paused');
    await shot('04-managed');

    await row.getByRole('button', { name: 'Delete' }).click();
    expect(await confirmDialog(page)).toBe('Delete endpoint invoices?');
    await page.locator('#notice', { hasText: 'Endpoint deleted' }).waitFor();
    expect(await page.locator(`tr[data-endpoint="${created!._id}"]`).count()).toBe(0);
    expect(await h.store.endpoints.findById(p.id, created!._id)).toBeNull();
  });

  it('pages past 25, filters, shows the payload and a connection error, retries (managing link)', async () => {
    const p = await h.createProject();
    const billing = await seedEndpoint(h.store, p.id, 'acme', 'billing', 'https://acme.example/billing');
    for (let i = 0; i < 26; i++) await seedDelivery(h.store, p.id, billing._id, 'Success');
    const event = await makeEvent(h.store, p.id, {
      raw: '{"order":42,"state":"paid"}',
      endpoints: [billing._id],
      target: { mode: 'single', endpoint_id: billing._id },
    });
    const refused = await makeDelivery(h.store, p.id, {
      event_id: event._id,
      endpoint_id: billing._id,
      status: 'Failure',
      attempts_made: 1,
      attempts: [
        {
          uid: newId(),
          url: 'https://acme.example/billing',
          method: 'POST',
          request_headers_json: '{}',
          response_headers_json: '{}',
          http_status: null,
          response_data: '',
          error: 'connect ECONNREFUSED 10.0.0.7:443',
          latency_ms: 3,
          created_at: new Date(),
        },
      ],
    });
    const { token } = await seedLink(h.store, p.id, { owner_id: 'acme', can_manage_endpoint: true });

    await page.goto(`${h.gateway.url}/portal?token=${token}`);
    await page.locator('#deliveries tr[data-delivery]').nth(24).waitFor();
    expect(await page.locator('#deliveries tr[data-delivery]').count()).toBe(25);
    // a row far down the list opens its detail in view, not below the fold (a short window: a laptop's)
    await page.setViewportSize({ width: 1200, height: 500 });
    await page.locator('#deliveries tr[data-delivery]').nth(20).locator('td').first().click();
    await page.locator('#detail pre').first().waitFor();
    await waitFor('the detail scrolled into view', () =>
      page.evaluate<boolean>(
        '(() => { const r = document.getElementById("detail").getBoundingClientRect(); return r.top >= 0 && r.top < innerHeight; })()',
      ),
    );
    await page.setViewportSize({ width: 1200, height: 900 });
    await page.locator('#older').click();
    await page.locator('#newer:not([hidden])').waitFor();
    expect(await page.locator('#deliveries tr[data-delivery]').count()).toBe(2);

    await page.selectOption('#delivery-filters select[name="status"]', 'Failure');
    await page.click('#delivery-filters button[type="submit"]');
    await page.locator(`tr[data-delivery="${refused._id}"]`).waitFor();
    expect(await page.locator('#deliveries tr[data-delivery]').count()).toBe(1);
    expect(await page.locator(`tr[data-delivery="${refused._id}"]`).innerText()).toContain('ECONNREFUSED');

    await page.locator(`tr[data-delivery="${refused._id}"] td`).first().click();
    await page.locator('#detail .request-body', { hasText: '"order": 42' }).first().waitFor();
    await shot('06-filtered-payload');

    await page
      .locator(`tr[data-delivery="${refused._id}"]`)
      .getByRole('button', { name: 'Retry', exact: true })
      .click();
    await page.locator('#notice', { hasText: 'Delivery retried' }).waitFor();
    expect((await h.store.deliveries.findById(p.id, refused._id))?.status).toBe('Scheduled');

    // Endpoint edit and "send a test event" from the endpoint's detail.
    await page.locator(`tr[data-endpoint="${billing._id}"] td`).first().click();
    await page.locator('#edit-endpoint').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.fill('#edit-endpoint input[name="name"]', 'billing-v2');
    await page.click('#edit-endpoint button[type="submit"]');
    await page.locator('#notice', { hasText: 'Endpoint saved' }).waitFor();
    expect((await h.store.endpoints.findById(p.id, billing._id))?.name).toBe('billing-v2');
    await page.click('#send-test-event');
    await page.locator('#notice', { hasText: 'Test event sent' }).waitFor();
    await shot('07-endpoint-edit-test-event');
  });

  it('retries a delivery still retrying, replays its event and lists the event types sent', async () => {
    const p = await h.createProject();
    const billing = await seedEndpoint(h.store, p.id, 'acme', 'billing', 'https://acme.example/billing');
    const other = await seedEndpoint(h.store, p.id, 'globex', 'globex-endpoint');
    const retrying = await seedDelivery(h.store, p.id, billing._id, 'Retry');
    await h.store.eventTypes.recordSeen(
      [
        [billing._id, 'invoice.paid'],
        [billing._id, 'customer.created'],
        [other._id, 'globex.only'],
      ].map(([endpointId, eventType]) => ({ projectId: p.id, endpointId, eventType, at: new Date() })),
    );
    const { token } = await seedLink(h.store, p.id, { owner_id: 'acme', can_manage_endpoint: true });

    await page.goto(`${h.gateway.url}/portal?token=${token}`);
    await page.locator('#event-types li[data-type="invoice.paid"]').waitFor();
    expect(await page.locator('#event-types li').allInnerTexts()).toEqual([
      'customer.created',
      'invoice.paid',
    ]);

    const row = page.locator(`tr[data-delivery="${retrying.delivery._id}"]`);
    await row.getByRole('button', { name: 'Retry now' }).click();
    await page.locator('#notice', { hasText: 'Delivery retried' }).waitFor();
    expect((await h.store.deliveries.findById(p.id, retrying.delivery._id))?.status).toBe('Scheduled');

    await row.locator('td').first().click();
    await page.getByRole('button', { name: 'Replay event' }).click();
    expect(await confirmDialog(page)).toBe('Replay this event to your endpoints? Each gets a new delivery.');
    await page.locator('#notice', { hasText: 'Event replayed' }).waitFor();
    expect(await h.store.deliveries.listByEvents(p.id, [retrying.eventId])).toHaveLength(2);
    await shot('08-retry-now-replay-event-types');
  });

  it('opens a delivery and retries it with the keyboard alone', async () => {
    const p = await h.createProject();
    const billing = await seedEndpoint(h.store, p.id, 'acme', 'billing', 'https://acme.example/billing');
    const failed = await seedDelivery(h.store, p.id, billing._id, 'Failure');
    const { token } = await seedLink(h.store, p.id, { owner_id: 'acme', can_manage_endpoint: true });
    const row = page.locator(`tr[data-delivery="${failed.delivery._id}"]`);

    await page.goto(`${h.gateway.url}/portal?token=${token}`);
    await row.locator('td').first().getByRole('button').focus();
    await page.keyboard.press('Enter');
    await page.locator('#detail', { hasText: 'HTTP 500' }).waitFor();

    await row.getByRole('button', { name: 'Retry', exact: true }).focus();
    await page.keyboard.press('Enter');
    await page.locator('#notice', { hasText: 'Delivery retried' }).waitFor();
    expect((await h.store.deliveries.findById(p.id, failed.delivery._id))?.status).toBe('Scheduled');
  });

  it('shows a clear error for an invalid link', async () => {
    await page.goto(`${h.gateway.url}/portal?token=not-a-real-token`);
    await page.locator('#error', { hasText: 'invalid portal token' }).waitFor();
    await shot('05-invalid-link');
  });
});
