import { waitFor } from '@hookrail/testkit';
import { verifyAdvanced, verifySimple } from '../../../../docs/verify/verify';
import { GatewayHarness } from '../testing/gateway-harness';
import { consoleWithDispatcher } from './testing/console-with-dispatcher';
import { screenshot, seriousViolations } from '../portal/testing/portal-browser';

jest.setTimeout(120_000);

const SECRET = 'console-made-endpoint-secret-0123456789';

/**
 * The signing scheme of an endpoint made with the console's form is the project's default for new
 * endpoints, as through the API and the portal: simple unless the project says otherwise, so a
 * receiver written from the demo (docs/verify's verifySimple) accepts its deliveries. Through a
 * real dispatcher to a real receiver.
 */
describe("console: a new endpoint's signing scheme is the project's default", () => {
  const h = new GatewayHarness();
  const { page: currentPage, receiver: currentReceiver } = consoleWithDispatcher(h);

  it('pre-fills the simple scheme; a delivery to the endpoint it creates verifies with verifySimple', async () => {
    const p = await h.createProject();
    const page = currentPage();
    await page.goto(`${h.gateway.url}/console/projects/${p.id}/endpoints/new`);
    await page.locator('#key').fill(p.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('#endpoint-form').waitFor();

    const advanced = page.locator('#endpoint-form-advanced_signatures');
    expect(await advanced.isChecked()).toBe(false);
    expect(await page.locator('#endpoint-form-advanced_signatures-hint').innerText()).toContain(
      "project's default for new endpoints is the simple scheme",
    );
    await page.locator('#endpoint-form-name').fill('billing');
    await page.locator('#endpoint-form-url').fill(`${currentReceiver().url}/billing`);
    await page.locator('#endpoint-form-secret').fill(SECRET);
    await page.locator('#endpoint-form button[type="submit"]').click();
    await page.locator('#toast', { hasText: 'Endpoint billing created' }).waitFor();
    const endpointId = new URL(page.url()).pathname.split('/').pop()!;
    const stored = await h.call('GET', `/v1/projects/${p.id}/endpoints/${endpointId}`, { key: p.key });
    expect(stored.body.data.advanced_signatures).toBe(false);

    const event = await h.call('POST', `/v1/projects/${p.id}/events`, {
      key: p.key,
      body: { endpoint_id: endpointId, event_type: 'invoice.paid', data: { n: 1 } },
    });
    expect(event.status).toBe(201);
    // (the first run of a fresh dispatcher waits for its Kafka consumer group: seconds)
    const got = await waitFor('the delivery at the receiver', () => currentReceiver().requests[0], {
      timeoutMs: 40_000,
    });
    const signature = got.headers['x-hookrail-signature'];
    expect(verifySimple(got.rawBody, signature, [SECRET])).toBe(true);
    expect(verifyAdvanced(got.rawBody, signature, [SECRET])).toBe(false);
  });

  it("takes the default from the project's settings form: ticked there, ticked in the new endpoint's form", async () => {
    const p = await h.createProject();
    const page = currentPage();
    await page.context().clearCookies(); // signed in with this project's key
    await page.goto(`${h.gateway.url}/console/projects/${p.id}/settings`);
    await page.locator('#key').fill(p.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const box = page.locator('#project-form-config-signature-advanced_signatures_default');
    await box.waitFor();
    expect(await box.isChecked()).toBe(false);
    await box.check();
    await page.locator('#project-form button[type="submit"]').click();
    await page.locator('#toast', { hasText: 'Settings saved' }).waitFor();
    const project = await h.call('GET', `/v1/projects/${p.id}`, { key: p.key });
    expect(project.body.data.config.signature.advanced_signatures_default).toBe(true);

    await page.goto(`${h.gateway.url}/console/projects/${p.id}/endpoints/new`);
    await page.locator('#endpoint-form').waitFor();
    expect(await page.locator('#endpoint-form-advanced_signatures').isChecked()).toBe(true);
    expect(await page.locator('#endpoint-form-advanced_signatures-hint').innerText()).toContain(
      'is the advanced scheme',
    );
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'console-new-endpoint-scheme-default');
  });
});
