import { GatewayHarness } from '../testing/gateway-harness';
import { gatewayAndChromium, pagePerTest, seriousViolations } from '../portal/testing/portal-browser';
import { seedLink } from '../portal/testing/portal-fixtures';
import { openSignedIn } from './testing/console-sign-in';

jest.setTimeout(120_000);

/**
 * The console's broker destinations in a real headless Chromium against the real gateway: a Kafka
 * endpoint created through the endpoint form (its password sealed, never shown again), shown with
 * its destination on the endpoint page and in the list, and edited without retyping the password.
 */
describe('console: broker destinations in a real headless Chromium', () => {
  const h = new GatewayHarness();
  const browser = gatewayAndChromium(h, { HOOKRAIL_ENCRYPTION_KEY: 'console-destinations-key' });
  const { page, errors } = pagePerTest(browser);

  it('creates a kafka endpoint, shows where it publishes, edits it keeping the stored password', async () => {
    const p = await h.createProject();
    await openSignedIn(page(), `${h.gateway.url}/console/projects/${p.id}/endpoints/new`, p.key);
    await page().getByRole('heading', { name: 'New endpoint', exact: true }).waitFor();

    await page().locator('#endpoint-form-name').fill('orders');
    await page().locator('#endpoint-form-type').selectOption('kafka');
    // a broker endpoint has no URL field
    expect(await page().locator('#endpoint-form-url').count()).toBe(0);
    await page().locator('#endpoint-form-destination-brokers').fill('127.0.0.1:9092, 127.0.0.2:9092');
    await page().locator('#endpoint-form-destination-topic_name').fill('orders');
    await page().locator('#endpoint-form-destination-auth-type').selectOption('plain');
    await page().locator('#endpoint-form-destination-auth-username').fill('svc');
    await page().locator('#endpoint-form-destination-auth-password').fill('kafka-pass-123');
    expect(await seriousViolations(page())).toEqual([]);
    await page().locator('#endpoint-form button[type="submit"]').click();
    await page().getByRole('heading', { name: 'Endpoint orders', exact: true }).waitFor();
    await page().getByText('Kafka 127.0.0.1:9092, 127.0.0.2:9092 · topic orders').waitFor();

    const id = new URL(page().url()).pathname.split('/').pop()!;
    const read = async () =>
      (await h.call('GET', `/v1/projects/${p.id}/endpoints/${id}`, { key: p.key })).body.data;
    const created = await read();
    expect(created).toMatchObject({
      type: 'kafka',
      url: '',
      destination: {
        brokers: ['127.0.0.1:9092', '127.0.0.2:9092'],
        topic_name: 'orders',
        auth: { type: 'plain', username: 'svc' },
      },
    });
    expect(JSON.stringify(created)).not.toContain('kafka-pass-123');
    const sealed = (await h.store.endpoints.findById(p.id, id))!.destination!.auth as { password: string };
    expect(sealed.password).toBeTruthy();

    // edit: the form starts from the endpoint, the password field empty; saving keeps the stored one
    await page().getByRole('link', { name: 'Edit', exact: true }).click();
    await page().getByRole('heading', { name: 'Edit endpoint orders', exact: true }).waitFor();
    expect(await page().locator('#endpoint-form-type').inputValue()).toBe('kafka');
    expect(await page().locator('#endpoint-form-destination-auth-password').inputValue()).toBe('');
    await page().locator('#endpoint-form-destination-topic_name').fill('orders-v2');
    await page().locator('#endpoint-form button[type="submit"]').click();
    await page().getByText('Kafka 127.0.0.1:9092, 127.0.0.2:9092 · topic orders-v2').waitFor();
    expect((await read()).destination.topic_name).toBe('orders-v2');
    const kept = (await h.store.endpoints.findById(p.id, id))!.destination!.auth as { password: string };
    expect(kept.password).toBe(sealed.password);

    // the list shows the destination too
    await page().goto(`${h.gateway.url}/console/projects/${p.id}/endpoints`);
    await page().getByText('Kafka 127.0.0.1:9092, 127.0.0.2:9092 · topic orders-v2').waitFor();
    expect(errors()).toEqual([]);
  });

  it('a destination the API refuses shows the error beside its field', async () => {
    const p = await h.createProject();
    await openSignedIn(page(), `${h.gateway.url}/console/projects/${p.id}/endpoints/new`, p.key);
    await page().getByRole('heading', { name: 'New endpoint', exact: true }).waitFor();
    await page().locator('#endpoint-form-name').fill('q');
    await page().locator('#endpoint-form-type').selectOption('sqs');
    await page().locator('#endpoint-form-destination-queue_name').fill('bad name!');
    await page().locator('#endpoint-form-destination-default_region').fill('eu-west-1');
    await page().locator('#endpoint-form-destination-access_key_id').fill('AKIA1');
    await page().locator('#endpoint-form-destination-secret_key').fill('secret');
    await page().locator('#endpoint-form button[type="submit"]').click();
    await page().locator('#endpoint-form-destination-queue_name-error', { hasText: 'pattern' }).waitFor();
    expect(await h.store.endpoints.page(p.id, {}, { perPage: 10 })).toMatchObject({ content: [] });
  });

  it('portal: a managing link adds an SQS destination, listed with where it publishes, its secret key never shown', async () => {
    const p = await h.createProject();
    const { token } = await seedLink(h.store, p.id, { owner_id: 'acme', can_manage_endpoint: true });
    await page().goto(`${h.gateway.url}/portal?token=${token}`);
    await page().locator('#broker-endpoint summary').click();
    await page().locator('#broker-form-name').fill('jobs');
    await page().locator('#broker-form-type').selectOption('sqs');
    await page().locator('#broker-form-destination-queue_name').fill('jobs.fifo');
    await page().locator('#broker-form-destination-default_region').fill('eu-west-1');
    await page().locator('#broker-form-destination-access_key_id').fill('AKIA1');
    await page().locator('#broker-form-destination-secret_key').fill('sqs-secret-456');
    expect(await seriousViolations(page())).toEqual([]);
    await page().locator('#broker-form button[type="submit"]').click();
    await page().locator('#endpoints tr', { hasText: 'SQS eu-west-1 · queue jobs.fifo' }).waitFor();
    const [created] = await h.store.endpoints.listByOwner(p.id, 'acme');
    expect(created).toMatchObject({ type: 'sqs', url: '', owner_id: 'acme' });
    expect(JSON.stringify(created)).not.toContain('sqs-secret-456');
    const shown = await h.portal('GET', `/endpoints/${created._id}`, token);
    expect(shown.body.data.destination).toEqual({
      access_key_id: 'AKIA1',
      default_region: 'eu-west-1',
      queue_name: 'jobs.fifo',
    });
    expect(await page().locator('body').innerText()).not.toContain('sqs-secret-456');
    expect(errors()).toEqual([]);
  });
});
