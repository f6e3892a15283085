import type { Browser, Page } from 'playwright-core';
import type { RunningService } from '@hookrail/runtime';
import { startReceiver, startTestService, testConfig, waitFor, type Receiver } from '@hookrail/testkit';
import { definition as dispatcher } from '../../../dispatcher/src/service';
import { GatewayHarness } from '../testing/gateway-harness';
import {
  confirmDialog,
  launchChromium,
  screenshot,
  seriousViolations,
} from '../portal/testing/portal-browser';

jest.setTimeout(180_000);

/**
 * Issue 33's end-to-end goal, in a real headless Chromium: an operator creates a source, an
 * endpoint and a subscription, sends a test event, watches it fail, retries it and replays it, all from the
 * console (no API call by the test but to check), through the real dispatcher to a real receiver.
 */
describe('console end to end: a project run from the console alone', () => {
  const h = new GatewayHarness();
  let worker: RunningService;
  let receiver: Receiver;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    await h.start();
    // No retry scheduler: after its failed first attempt the delivery waits in Retry for the operator.
    worker = await startTestService(
      dispatcher(testConfig('dispatcher', { HOOKRAIL_KAFKA_TOPIC_PREFIX: h.prefix })),
    );
    receiver = await startReceiver({ fail: 1 });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
    page.setDefaultTimeout(15_000);
  });
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await worker?.stop();
    await h.stop();
  });

  const submit = (form: string) => page.locator(`#${form} button[type="submit"]`).click();
  const nav = (name: string) => page.locator('#side').getByRole('link', { name, exact: true }).click();

  it('creates a source, an endpoint and a subscription, sends a test event, watches it fail, retries it and replays it', async () => {
    const p = await h.createProject();
    await page.goto(`${h.gateway.url}/console`);
    await page.locator('#key').fill(p.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('#side').waitFor();

    // a source
    await nav('Sources');
    await page.getByRole('link', { name: 'New source' }).click();
    await page.locator('#source-form-name').fill('shop');
    await submit('source-form');
    await page.getByRole('heading', { name: 'Source shop', exact: true }).waitFor();

    // an endpoint: the receiver
    await nav('Endpoints');
    await page.getByRole('link', { name: 'New endpoint' }).click();
    await page.locator('#endpoint-form-name').fill('billing');
    await page.locator('#endpoint-form-url').fill(`${receiver.url}/billing`);
    await submit('endpoint-form');
    await page.getByRole('heading', { name: 'Endpoint billing', exact: true }).waitFor();

    // a subscription of the endpoint to the source's events
    await nav('Subscriptions');
    await page.getByRole('link', { name: 'New subscription' }).click();
    await page
      .locator('#subscription-form-endpoint_id option', { hasText: 'billing' })
      .waitFor({ state: 'attached' });
    await page.locator('#subscription-form-name').fill('billing-all');
    await page.locator('#subscription-form-endpoint_id').selectOption({ label: 'billing' });
    await page.locator('#subscription-form-source_id').selectOption({ label: 'shop' });
    await submit('subscription-form');
    await page.getByRole('heading', { name: 'Subscription billing-all', exact: true }).waitFor();

    // a test event to the endpoint, from its page
    await nav('Endpoints');
    await page.locator('#endpoints').getByRole('link', { name: 'billing' }).click();
    await page.getByRole('link', { name: 'Send test event' }).click();
    await page.getByRole('heading', { name: 'Send an event', exact: true }).waitFor();
    await page
      .locator('#event-form-endpoint_id option', { hasText: 'billing' })
      .waitFor({ state: 'attached' });
    expect(await page.locator('#event-form-endpoint_id').inputValue()).not.toBe('');
    await page.locator('#event-form-event_type').fill('invoice.paid');
    await page.locator('#event-form-data').fill('{"invoice": 42}');
    await submit('event-form');
    await page.getByRole('heading', { name: 'Event invoice.paid', exact: true }).waitFor();

    // watch it: the event's page refreshes live; the first attempt fails (500) and waits in Retry
    const row = page.locator('table.deliveries tbody tr').first();
    await row.getByRole('button', { name: 'Retry now' }).waitFor({ timeout: 60_000 });
    expect(await row.innerText()).toContain('billing');
    expect(receiver.requests).toHaveLength(1);
    expect(JSON.parse(receiver.requests[0].body)).toEqual({ invoice: 42 });
    await screenshot(page, 'console-e2e-01-event-retrying');
    expect(await seriousViolations(page)).toEqual([]);

    // retry it now: delivered on the second attempt, shown without a reload
    await row.getByRole('button', { name: 'Retry now' }).click();
    await page.locator('#toast', { hasText: 'Delivery sent again now' }).waitFor();
    await waitFor('the second attempt at the receiver', () => receiver.requests.length === 2 || undefined);
    await page
      .locator('table.deliveries tbody tr .badge', { hasText: 'Success' })
      .waitFor({ timeout: 30_000 });
    await row.getByRole('link').first().click();
    await page.getByRole('heading', { name: 'Attempts (2)', exact: true }).waitFor();
    expect(await page.locator('#attempts tbody tr').first().innerText()).toContain('HTTP 200');
    await screenshot(page, 'console-e2e-02-delivered');

    // replay the event from its page: a new delivery, received a third time
    await page.getByRole('link', { name: /^event$/ }).click();
    await page.getByRole('button', { name: 'Replay event' }).click();
    expect(await confirmDialog(page)).toBe('Replay this event to its endpoints?');
    await page.locator('#toast', { hasText: 'Event replayed' }).waitFor();
    await waitFor('the replayed delivery at the receiver', () => receiver.requests.length === 3 || undefined);
    expect(JSON.parse(receiver.requests[2].body)).toEqual({ invoice: 42 });
    await page.locator('table.deliveries tbody tr').nth(1).waitFor({ timeout: 30_000 });

    const deliveries = await h.call('GET', `/v1/projects/${p.id}/eventdeliveries?status=Success`, {
      key: p.key,
    });
    expect(deliveries.body.data.content).toContainEqual(
      expect.objectContaining({
        status: 'Success',
        attempts_made: 2,
        endpoint_metadata: expect.objectContaining({ name: 'billing' }),
      }),
    );
  });
});
