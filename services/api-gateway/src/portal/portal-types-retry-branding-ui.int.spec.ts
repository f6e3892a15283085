import { waitFor } from '@hookrail/testkit';
import type { Page } from 'playwright-core';
import { GatewayHarness } from '../testing/gateway-harness';
import { gatewayAndChromium, pagePerTest, screenshot, seriousViolations } from './testing/portal-browser';
import { seedDelivery, seedEndpoint, seedLink } from './testing/portal-fixtures';

jest.setTimeout(60_000);

/**
 * The portal in a real headless Chromium: a test event goes out as a concrete event type, never as
 * the subscription's pattern; end customers retry failed deliveries and never send a delivered one
 * again, in the console's word (Retry); the project's branding in the header and the colours.
 */
describe('portal page: test event types, retry, branding', () => {
  const h = new GatewayHarness();
  const browser = gatewayAndChromium(h);
  const { page: currentPage, errors } = pagePerTest(browser);
  let events: Awaited<ReturnType<typeof h.collect<'events'>>>;
  beforeAll(async () => {
    events = await h.collect('events');
  });

  /** A managing link's endpoint subscribed to `types` (through the portal API, as its holder would). */
  async function endpointFor(types: string[], catalog: string[] = []) {
    const p = await h.createProject();
    for (const name of catalog) {
      const res = await h.call('POST', `/v1/projects/${p.id}/event-types`, { key: p.key, body: { name } });
      expect(res.status).toBe(201);
    }
    const { token } = await seedLink(h.store, p.id, { owner_id: 'acme', can_manage_endpoint: true });
    const created = await h.portal('POST', '/endpoints', token, {
      name: 'billing',
      url: 'https://acme.example/billing',
      event_types: types,
    });
    expect(created.status).toBe(201);
    return { p, token, endpointId: created.body.data.uid as string };
  }

  async function openEndpoint(page: Page, token: string, endpointId: string) {
    await page.goto(`${h.gateway.url}/portal?token=${token}`);
    await page.locator(`tr[data-endpoint="${endpointId}"] td`).first().click();
    await page.locator('#test-event-type').waitFor();
  }

  it('pre-fills a catalog type the pattern selects, and the event goes out with that type', async () => {
    const { p, token, endpointId } = await endpointFor(['invoice.*'], ['customer.created', 'invoice.paid']);
    const page = currentPage();
    await openEndpoint(page, token, endpointId);

    expect(await page.locator('#test-event-type').inputValue()).toBe('invoice.paid');
    await page.click('#send-test-event');
    await page.locator('#notice', { hasText: 'Test event sent' }).waitFor();
    const sent = await waitFor('the test event on the events topic', () =>
      events.find((e) => e.project_id === p.id),
    );
    expect(sent.event_type).toBe('invoice.paid');
    expect(errors()).toEqual([]);
  });

  it('without a catalog type, asks for a concrete type and refuses to send a pattern', async () => {
    const { p, token, endpointId } = await endpointFor(['order.*']);
    const page = currentPage();
    await openEndpoint(page, token, endpointId);

    const input = page.locator('#test-event-type');
    const send = page.locator('#send-test-event');
    expect(await input.inputValue()).toBe('');
    expect(await input.getAttribute('placeholder')).toBe('order.created');
    expect(await send.isDisabled()).toBe(true);
    expect(await page.locator('#test-event-hint').innerText()).toContain('e.g. order.created');

    await input.fill('order.*');
    await page.locator('#test-event-hint', { hasText: 'order.* is a pattern' }).waitFor();
    expect(await send.isDisabled()).toBe(true);

    await input.fill('order.shipped');
    expect(await send.isDisabled()).toBe(false);
    await send.click();
    await page.locator('#notice', { hasText: 'Test event sent' }).waitFor();
    const sent = await waitFor('the test event on the events topic', () =>
      events.find((e) => e.project_id === p.id),
    );
    expect(sent.event_type).toBe('order.shipped');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'portal-test-event-concrete-type');
  });

  it('offers Retry for failed deliveries and nothing for a delivered one, never "Resend"', async () => {
    const p = await h.createProject();
    const billing = await seedEndpoint(h.store, p.id, 'acme', 'billing');
    const done = await seedDelivery(h.store, p.id, billing._id, 'Success');
    const failed = await seedDelivery(h.store, p.id, billing._id, 'Failure');
    const discarded = await seedDelivery(h.store, p.id, billing._id, 'Discarded');
    const { token } = await seedLink(h.store, p.id, { owner_id: 'acme', can_manage_endpoint: true });
    const page = currentPage();
    await page.goto(`${h.gateway.url}/portal?token=${token}`);
    const row = (id: string) => page.locator(`tr[data-delivery="${id}"]`);
    await row(done.delivery._id).waitFor();

    expect(await row(done.delivery._id).locator('.row-actions button').count()).toBe(0);
    for (const d of [failed, discarded])
      expect(await row(d.delivery._id).locator('.row-actions button').allInnerTexts()).toEqual(['Retry']);
    const text = await page.locator('body').innerText();
    expect(text).not.toMatch(/resend/i);
    // a delivered one opened: still nothing sends it again
    await row(done.delivery._id).locator('td').first().click();
    await page.locator('#detail', { hasText: 'HTTP 200' }).waitFor();
    expect(await page.locator('body').innerText()).not.toMatch(/resend/i);

    await row(failed.delivery._id).getByRole('button', { name: 'Retry', exact: true }).click();
    await page.locator('#notice', { hasText: 'Delivery retried' }).waitFor();
    expect((await h.store.deliveries.findById(p.id, failed.delivery._id))?.status).toBe('Scheduled');
    expect((await h.store.deliveries.findById(p.id, done.delivery._id))?.status).toBe('Success');
  });

  it("shows the project's branding: name, logo and colours", async () => {
    const p = await h.createProject('outgoing', {
      portal_branding: {
        name: 'Acme webhooks',
        logo_url: 'https://cdn.acme.example/logo.png',
        primary_color: '#aa3300',
        background_color: '#fafaf5',
      },
    });
    const { token } = await seedLink(h.store, p.id, { owner_id: 'acme' });
    const page = currentPage();
    await page.goto(`${h.gateway.url}/portal?token=${token}`);
    await page.locator('#title', { hasText: 'Acme webhooks' }).waitFor();
    expect(await page.locator('#subtitle').innerText()).toContain('Acme portal'); // the link's name
    expect(await page.locator('header img#logo').getAttribute('src')).toBe(
      'https://cdn.acme.example/logo.png',
    );
    await waitFor(
      'the title',
      async () => (await page.title()) === 'Acme webhooks · Webhooks portal' || undefined,
    );
    const style = (await page.evaluate(
      `(() => {
        const root = getComputedStyle(document.documentElement);
        return {
          accent: root.getPropertyValue('--accent').trim(),
          bg: root.getPropertyValue('--bg').trim(),
          body: getComputedStyle(document.body).backgroundColor,
          rule: getComputedStyle(document.querySelector('header')).borderTopColor,
        };
      })()`,
    )) as Record<string, string>;
    expect(style).toEqual({
      accent: '#aa3300',
      bg: '#fafaf5',
      body: 'rgb(250, 250, 245)',
      rule: 'rgb(170, 51, 0)',
    });
    // the logo is allowed by the page's policy (no CSP refusal; the host itself is unreachable here)
    expect(errors().filter((e) => /Content Security Policy|Refused/i.test(e))).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'portal-branding');

    // a project without branding: the link's name and the portal's own colours
    const plain = await h.createProject();
    const other = await seedLink(h.store, plain.id, { owner_id: 'acme' });
    await page.goto(`${h.gateway.url}/portal?token=${other.token}`);
    await page.locator('#title', { hasText: 'Acme portal' }).waitFor();
    expect(await page.locator('header img').count()).toBe(0);
    const accent = await page.evaluate(
      "getComputedStyle(document.documentElement).getPropertyValue('--accent').trim()",
    );
    expect(accent).toBe('#1f4fc4');
  });
});
