import { readFileSync } from 'node:fs';
import path from 'node:path';
import { GatewayHarness } from '../testing/gateway-harness';
import {
  confirmDialog,
  gatewayAndChromium,
  pagePerTest,
  screenshot,
  seriousViolations,
} from '../portal/testing/portal-browser';
import { openSignedIn } from './testing/console-sign-in';

jest.setTimeout(120_000);

const OPENAPI = readFileSync(path.join(__dirname, '../event-types/testdata/payments.openapi.yaml'), 'utf8');

/**
 * The event catalog managed from the console in a real headless Chromium against the real gateway
 * and store: create with a schema and an example (the API's 400 beside the field), edit, deprecate
 * and make current again, delete, and an import previewed as a dry run before it is applied.
 */
describe('console: event types', () => {
  const h = new GatewayHarness();
  const browser = gatewayAndChromium(h);
  const { page: currentPage } = pagePerTest(browser);
  const page = () => currentPage();

  const listed = async (pid: string, key: string) => {
    const res = await h.call('GET', `/v1/projects/${pid}/event-types`, { key });
    expect(res.status).toBe(200);
    return res.body.data as { uid: string; name: string; deprecated: boolean; description: string }[];
  };
  const submit = (form: string) => page().locator(`#${form} button[type="submit"]`).click();

  it('creates a type with a schema and example (a bad example is the API’s 400 beside it), edits, deprecates and deletes it', async () => {
    const p = await h.createProject();
    await openSignedIn(page(), `${h.gateway.url}/console/projects/${p.id}/event-types`, p.key);
    await page().locator('#event-types', { hasText: 'No event types yet' }).waitFor();
    await page().getByRole('link', { name: 'New event type' }).click();
    await page().getByRole('heading', { name: 'New event type', exact: true }).waitFor();
    expect(await seriousViolations(page())).toEqual([]);

    await page().fill('#event-type-form-name', 'invoice.paid');
    await page().fill('#event-type-form-description', 'An invoice was paid');
    await page().fill('#event-type-form-category', 'billing');
    await page().fill(
      '#event-type-form-json_schema',
      JSON.stringify({ type: 'object', required: ['amount'], properties: { amount: { type: 'integer' } } }),
    );
    await page().fill('#event-type-form-example', '{"amount": "twelve"}');
    await submit('event-type-form');
    // The example does not match the schema: the API names the field, the form shows it there.
    await page().locator('#event-type-form-example-error').waitFor();
    expect(await page().locator('#event-type-form-example-error').innerText()).toMatch(/amount/);
    expect(await listed(p.id, p.key)).toEqual([]);

    await page().fill('#event-type-form-example', '{"amount": 1200}');
    await submit('event-type-form');
    await page().getByRole('heading', { name: 'Event type invoice.paid', exact: true }).waitFor();
    const [created] = await listed(p.id, p.key);
    expect(created).toMatchObject({
      name: 'invoice.paid',
      description: 'An invoice was paid',
      category: 'billing',
      example: { amount: 1200 },
      deprecated: false,
    });
    expect(await seriousViolations(page())).toEqual([]);
    await screenshot(page(), 'console-event-types-01-created');

    await page().fill('#event-type-form-description', 'An invoice was paid in full');
    await submit('event-type-form');
    await page().locator('#toast', { hasText: 'Event type saved' }).waitFor();
    expect((await listed(p.id, p.key))[0].description).toBe('An invoice was paid in full');

    await page().getByRole('button', { name: 'Deprecate' }).click();
    await page().getByRole('button', { name: 'Make current' }).waitFor();
    expect((await listed(p.id, p.key))[0].deprecated).toBe(true);
    await page().getByRole('button', { name: 'Make current' }).click();
    await page().getByRole('button', { name: 'Deprecate' }).waitFor();
    expect((await listed(p.id, p.key))[0].deprecated).toBe(false);

    await page().getByRole('button', { name: 'Delete' }).click();
    expect(await confirmDialog(page())).toBe('Delete event type invoice.paid?');
    await page().getByRole('heading', { name: 'Event types', exact: true }).waitFor();
    expect(await listed(p.id, p.key)).toEqual([]);
  });

  it('previews an OpenAPI import as a dry run (nothing stored), then imports it', async () => {
    const p = await h.createProject();
    await openSignedIn(page(), `${h.gateway.url}/console/projects/${p.id}/event-types/import`, p.key);
    await page().getByRole('heading', { name: 'Import event types', exact: true }).waitFor();
    // An empty document is refused before anything is sent.
    await submit('import-form');
    await page().locator('#import-form-spec-error', { hasText: 'is required' }).waitFor();

    await page().fill('#import-form-spec', 'openapi: 3.1.0\ninfo: {title: x, version: "1"}\nwebhooks: 42\n');
    await submit('import-form');
    await page().locator('#import-form .field-error, #import-form-error').first().waitFor();

    await page().fill('#import-form-spec', OPENAPI);
    await submit('import-form');
    await page().locator('#import-plan').waitFor();
    const created = await page().locator('#plan-created li').allInnerTexts();
    expect(created.length).toBeGreaterThan(1);
    expect(await listed(p.id, p.key)).toEqual([]);
    expect(await seriousViolations(page())).toEqual([]);
    await screenshot(page(), 'console-event-types-02-import-plan');

    await page().getByLabel('Import', { exact: true }).check();
    await submit('import-form');
    await page().getByRole('heading', { name: 'Event types', exact: true }).waitFor();
    const stored = (await listed(p.id, p.key)).map((t) => t.name).sort();
    expect(stored).toEqual([...created].sort());
    for (const name of stored) await page().locator(`#event-types tr[data-type="${name}"]`).waitFor();
  });
});
