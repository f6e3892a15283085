import { makeEvent } from '@hookrail/testkit';
import { ADMIN_KEY, GatewayHarness } from '../testing/gateway-harness';
import {
  gatewayAndChromium,
  pagePerTest,
  screenshot,
  seriousViolations,
} from '../portal/testing/portal-browser';
import { openSignedIn } from './testing/console-sign-in';

jest.setTimeout(120_000);

/**
 * The console in a real headless Chromium: an empty project says what to create first and links
 * its form; the project list searches by name or id; the settings form sets the portal's branding;
 * labels speak to a user (no repository paths).
 */
describe('console: getting started, project search, branding settings, labels', () => {
  const h = new GatewayHarness();
  const browser = gatewayAndChromium(h);
  const { page: currentPage, errors } = pagePerTest(browser);
  const steps = () => currentPage().locator('#getting-started li').allInnerTexts();

  it('an empty outgoing project lists endpoint, subscription, event, each linked to its form, until done', async () => {
    const p = await h.createProject();
    const page = currentPage();
    await openSignedIn(page, `${h.gateway.url}/console/projects/${p.id}`, p.key);
    await page.getByRole('heading', { name: 'This project is empty: get started' }).waitFor();
    const texts = await steps();
    expect(texts).toHaveLength(3);
    expect(texts[0]).toMatch(/^Create an endpoint.*New endpoint$/);
    expect(texts[1]).toMatch(/^Create a subscription.*New subscription$/);
    expect(texts[2]).toMatch(/^Send an event.*Send an event$/);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'console-getting-started');

    await page.locator('#getting-started').getByRole('link', { name: 'New endpoint' }).click();
    await page.getByRole('heading', { name: 'New endpoint', exact: true }).waitFor();

    const endpoint = await h.call('POST', `/v1/projects/${p.id}/endpoints`, {
      key: p.key,
      body: { name: 'billing', url: 'https://acme.example/billing' },
    });
    expect(endpoint.status).toBe(201);
    const sub = await h.call('POST', `/v1/projects/${p.id}/subscriptions`, {
      key: p.key,
      body: { name: 'all', endpoint_id: endpoint.body.data.uid },
    });
    expect(sub.status).toBe(201);
    await page.goto(`${h.gateway.url}/console/projects/${p.id}`);
    await page.getByRole('heading', { name: 'Get started', exact: true }).waitFor();
    const now = await steps();
    expect(now[0]).toContain('(done)');
    expect(now[1]).toContain('(done)');
    await page.locator('#getting-started').getByRole('link', { name: 'Send an event' }).click();
    await page.locator('main h1', { hasText: /send/i }).first().waitFor();
    expect(new URL(page.url()).pathname).toBe(`/console/projects/${p.id}/events/new`);

    // an event stored: nothing left to start with
    await makeEvent(h.store, p.id, { endpoints: [endpoint.body.data.uid] });
    await page.goto(`${h.gateway.url}/console/projects/${p.id}`);
    await page.locator('.stat').first().waitFor();
    expect(await page.locator('#getting-started').count()).toBe(0);
    expect(errors()).toEqual([]);
  });

  it('an empty incoming project starts with a source', async () => {
    const p = await h.createProject('incoming');
    const page = currentPage();
    await openSignedIn(page, `${h.gateway.url}/console/projects/${p.id}`, p.key);
    await page.locator('#getting-started').waitFor();
    const texts = await steps();
    expect(texts).toHaveLength(4);
    expect(texts[0]).toMatch(/^Create a source.*New source$/);
    expect(texts[1]).toMatch(/^Create an endpoint/);
    expect(texts[2]).toMatch(/^Create a subscription/);
    expect(texts[3]).toMatch(/ingest URL/);
    await page.locator('#getting-started').getByRole('link', { name: 'New source' }).click();
    await page.getByRole('heading', { name: 'New source', exact: true }).waitFor();
  });

  it('searches the project list by a part of the name or by id', async () => {
    const tag = `srch${Date.now().toString(36)}`;
    const ids: string[] = [];
    for (const name of [`${tag}-alpha`, `${tag}-beta`]) {
      const res = await h.call('POST', '/v1/projects', { key: ADMIN_KEY, body: { name, type: 'outgoing' } });
      expect(res.status).toBe(201);
      ids.push(res.body.data.uid);
    }
    const page = currentPage();
    await openSignedIn(page, `${h.gateway.url}/console`, ADMIN_KEY);
    const search = page.getByLabel('Search projects');
    await search.fill(`${tag.toUpperCase()}-ALP`);
    await search.press('Enter');
    await page.waitForURL((u) => u.searchParams.get('q') === `${tag.toUpperCase()}-ALP`);
    await page.locator(`#projects tr[data-id="${ids[1]}"]`).waitFor({ state: 'detached' });
    expect(await page.locator('#projects tbody tr').count()).toBe(1);
    await page.locator(`#projects tr[data-id="${ids[0]}"]`).waitFor();

    await page.goto(`${h.gateway.url}/console?q=${ids[1]}`);
    await page.locator(`#projects tr[data-id="${ids[1]}"]`).waitFor();
    expect(await page.locator('#projects tbody tr').count()).toBe(1);

    await page.goto(`${h.gateway.url}/console?q=${tag}-nothing`);
    await page.locator('#empty', { hasText: 'Nothing matches these filters.' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("sets the portal's branding in the project settings, a bad colour refused beside its field", async () => {
    const p = await h.createProject();
    const page = currentPage();
    await openSignedIn(page, `${h.gateway.url}/console/projects/${p.id}/settings`, p.key);
    const field = (name: string) => page.locator(`#project-form-config-portal_branding-${name}`);
    await field('name').fill('Acme webhooks');
    await field('logo_url').fill('https://cdn.acme.example/logo.png');
    await field('primary_color').fill('red');
    await page.locator('#project-form button[type="submit"]').click();
    await page.locator('#project-form-config-portal_branding-primary_color-error').waitFor();
    await field('primary_color').fill('#aa3300');
    await page.locator('#project-form button[type="submit"]').click();
    await page.locator('#toast', { hasText: 'Settings saved' }).waitFor();
    const saved = await h.call('GET', `/v1/projects/${p.id}`, { key: p.key });
    expect(saved.body.data.config.portal_branding).toEqual({
      name: 'Acme webhooks',
      logo_url: 'https://cdn.acme.example/logo.png',
      primary_color: '#aa3300',
    });

    // emptied on the form: removed
    await page.reload();
    await field('logo_url').waitFor();
    expect(await field('logo_url').inputValue()).toBe('https://cdn.acme.example/logo.png');
    await field('logo_url').fill('');
    await page.locator('#project-form button[type="submit"]').click();
    await page.locator('#toast', { hasText: 'Settings saved' }).waitFor();
    const emptied = await h.call('GET', `/v1/projects/${p.id}`, { key: p.key });
    expect(emptied.body.data.config.portal_branding).toEqual({
      name: 'Acme webhooks',
      primary_color: '#aa3300',
    });
  });

  it('explains ordered delivery in words, with no repository path', async () => {
    const p = await h.createProject();
    const page = currentPage();
    await openSignedIn(page, `${h.gateway.url}/console/projects/${p.id}/subscriptions/new`, p.key);
    await page.locator('legend', { hasText: 'Ordered delivery' }).waitFor();
    expect(await page.locator('legend', { hasText: 'Ordered delivery' }).innerText()).toBe(
      'Ordered delivery',
    );
    expect(await page.locator('#ordering-explained').innerText()).toContain(
      'in the order the events were accepted',
    );
    expect(await page.locator('main').innerText()).not.toMatch(/docs\/|\.md\b/);
  });
});
