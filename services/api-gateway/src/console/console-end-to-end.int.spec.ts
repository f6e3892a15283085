import { waitFor } from '@hookrail/testkit';
import { GatewayHarness } from '../testing/gateway-harness';
import { consoleWithDispatcher } from './testing/console-with-dispatcher';
import { confirmDialog, screenshot, seriousViolations } from '../portal/testing/portal-browser';

jest.setTimeout(180_000);

/**
 * Issue 33's end-to-end goal, in a real headless Chromium: an operator creates a source, an
 * endpoint and a subscription, sends a test event, watches it fail, retries it and replays it, all from the
 * console (no API call by the test but to check), through the real dispatcher to a real receiver.
 */
describe('console end to end: a project run from the console alone', () => {
  const h = new GatewayHarness();
  const { page: currentPage, receiver: currentReceiver } = consoleWithDispatcher(h);

  const submit = (form: string) => currentPage().locator(`#${form} button[type="submit"]`).click();
  const nav = (name: string) =>
    currentPage().locator('#side').getByRole('link', { name, exact: true }).click();

  it('creates a source, an endpoint and a subscription, sends a test event, watches it fail, retries it and replays it', async () => {
    const p = await h.createProject();
    await currentPage().goto(`${h.gateway.url}/console`);
    await currentPage().locator('#key').fill(p.key);
    await currentPage().getByRole('button', { name: 'Sign in' }).click();
    await currentPage().locator('#side').waitFor();

    // a source
    await nav('Sources');
    await currentPage().getByRole('link', { name: 'New source' }).click();
    await currentPage().locator('#source-form-name').fill('shop');
    await submit('source-form');
    await currentPage().getByRole('heading', { name: 'Source shop', exact: true }).waitFor();

    // an endpoint: the receiver
    await nav('Endpoints');
    await currentPage().getByRole('link', { name: 'New endpoint' }).click();
    await currentPage().locator('#endpoint-form-name').fill('billing');
    await currentPage().locator('#endpoint-form-url').fill(`${currentReceiver().url}/billing`);
    await submit('endpoint-form');
    await currentPage().getByRole('heading', { name: 'Endpoint billing', exact: true }).waitFor();

    // a subscription of the endpoint: without a source, so it takes the events API's events too
    // (one naming a source receives only that source's events, docs/decisions.md)
    await nav('Subscriptions');
    await currentPage().getByRole('link', { name: 'New subscription' }).click();
    await currentPage()
      .locator('#subscription-form-endpoint_id option', { hasText: 'billing' })
      .waitFor({ state: 'attached' });
    await currentPage().locator('#subscription-form-name').fill('billing-all');
    await currentPage().locator('#subscription-form-endpoint_id').selectOption({ label: 'billing' });
    // the source is offered in the picker
    await currentPage()
      .locator('#subscription-form-source_id option', { hasText: 'shop' })
      .waitFor({ state: 'attached' });
    await submit('subscription-form');
    await currentPage().getByRole('heading', { name: 'Subscription billing-all', exact: true }).waitFor();

    // a test event to the endpoint, from its page
    await nav('Endpoints');
    await currentPage().locator('#endpoints').getByRole('link', { name: 'billing' }).click();
    await currentPage().getByRole('link', { name: 'Send test event' }).click();
    await currentPage().getByRole('heading', { name: 'Send an event', exact: true }).waitFor();
    await currentPage()
      .locator('#event-form-endpoint_id option', { hasText: 'billing' })
      .waitFor({ state: 'attached' });
    expect(await currentPage().locator('#event-form-endpoint_id').inputValue()).not.toBe('');
    await currentPage().locator('#event-form-event_type').fill('invoice.paid');
    await currentPage().locator('#event-form-data').fill('{"invoice": 42}');
    await submit('event-form');
    await currentPage().getByRole('heading', { name: 'Event invoice.paid', exact: true }).waitFor();

    // watch it: the event's page refreshes live; the first attempt fails (500) and waits in Retry
    const row = currentPage().locator('table.deliveries tbody tr').first();
    await row.getByRole('button', { name: 'Retry now' }).waitFor({ timeout: 60_000 });
    expect(await row.innerText()).toContain('billing');
    expect(currentReceiver().requests).toHaveLength(1);
    expect(JSON.parse(currentReceiver().requests[0].body)).toEqual({ invoice: 42 });
    await screenshot(currentPage(), 'console-e2e-01-event-retrying');
    expect(await seriousViolations(currentPage())).toEqual([]);

    // retry it now: delivered on the second attempt, shown without a reload
    await row.getByRole('button', { name: 'Retry now' }).click();
    await currentPage().locator('#toast', { hasText: 'Delivery sent again now' }).waitFor();
    await waitFor(
      'the second attempt at the receiver',
      () => currentReceiver().requests.length === 2 || undefined,
    );
    await currentPage()
      .locator('table.deliveries tbody tr .badge', { hasText: 'Success' })
      .waitFor({ timeout: 30_000 });
    await row.getByRole('link').first().click();
    await currentPage().getByRole('heading', { name: 'Attempts (2)', exact: true }).waitFor();
    expect(await currentPage().locator('#attempts tbody tr').first().innerText()).toContain('HTTP 200');
    await screenshot(currentPage(), 'console-e2e-02-delivered');

    // replay the event from its page: a new delivery, received a third time
    await currentPage()
      .getByRole('link', { name: /^event$/ })
      .click();
    await currentPage().getByRole('button', { name: 'Replay event' }).click();
    expect(await confirmDialog(currentPage())).toBe('Replay this event to its endpoints?');
    await currentPage().locator('#toast', { hasText: 'Event replayed' }).waitFor();
    await waitFor(
      'the replayed delivery at the receiver',
      () => currentReceiver().requests.length === 3 || undefined,
    );
    expect(JSON.parse(currentReceiver().requests[2].body)).toEqual({ invoice: 42 });
    await currentPage().locator('table.deliveries tbody tr').nth(1).waitFor({ timeout: 30_000 });

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
