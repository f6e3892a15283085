import { makeDelivery, makeEndpoint, makeEvent } from '@hookrail/testkit';
import { GatewayHarness } from '../testing/gateway-harness';
import { gatewayAndChromium, pagePerTest } from '../portal/testing/portal-browser';
import { openSignedIn } from './testing/console-sign-in';

jest.setTimeout(90_000);

/**
 * The console follows its session's role: a viewer's pages show no write action and no payload, an
 * owner's the same pages with both (so the viewer's empty pages are the role's doing, not a page
 * that failed to render them).
 */
describe('console: what a role sees', () => {
  const h = new GatewayHarness();
  const browser = gatewayAndChromium(h);
  const { page, errors } = pagePerTest(browser);

  async function fixture() {
    const p = await h.createProject();
    const endpoint = await makeEndpoint(h.store, p.id, { url: 'http://127.0.0.1:9/a', name: 'billing' });
    const event = await makeEvent(h.store, p.id, { raw: '{"secret_total":4200}' });
    const delivery = await makeDelivery(h.store, p.id, {
      event_id: event._id,
      endpoint_id: endpoint._id,
      status: 'Failure',
    });
    const viewer = await h.call('POST', `/v1/projects/${p.id}/keys`, {
      key: p.key,
      body: { name: 'dashboard', role: 'viewer' },
    });
    return { p, endpoint, event, delivery, viewerKey: viewer.body.data.key as string };
  }

  async function actionsOn(url: string, key: string) {
    const pg = page();
    await openSignedIn(pg, url, key);
    await pg.getByRole('heading', { name: 'billing' }).waitFor();
    return {
      edit: await pg.getByRole('link', { name: 'Edit' }).count(),
      pause: await pg.getByRole('button', { name: 'Pause' }).count(),
      delete: await pg.getByRole('button', { name: 'Delete', exact: true }).count(),
      roll: await pg.getByRole('button', { name: 'Roll secret' }).count(),
    };
  }

  it('hides every write action of the endpoint page from a viewer, not from an owner', async () => {
    const f = await fixture();
    const url = `${h.gateway.url}/console/projects/${f.p.id}/endpoints/${f.endpoint._id}`;
    expect(await actionsOn(url, f.viewerKey)).toEqual({ edit: 0, pause: 0, delete: 0, roll: 0 });
    await page().context().clearCookies();
    expect(await actionsOn(url, f.p.key)).toEqual({ edit: 1, pause: 1, delete: 1, roll: 1 });
    expect(errors()).toEqual([]);
  });

  it('shows a viewer deliveries without retry, events without payload, forms read-only', async () => {
    const f = await fixture();
    const base = `${h.gateway.url}/console/projects/${f.p.id}`;
    const pg = page();
    await openSignedIn(pg, `${base}/deliveries`, f.viewerKey);
    await pg.getByRole('link', { name: 'billing' }).first().waitFor();
    expect(await pg.getByRole('button', { name: /^(Retry|Force resend|Batch retry)/ }).count()).toBe(0);

    await pg.goto(`${base}/events/${f.event._id}`);
    await pg.getByRole('heading', { name: 'Payload' }).waitFor();
    expect(await pg.locator('.payload-hidden').count()).toBe(1);
    expect(await pg.content()).not.toContain('secret_total');
    expect(await pg.getByRole('button', { name: 'Replay event' }).count()).toBe(0);

    await pg.goto(`${base}/endpoints/${f.endpoint._id}/edit`);
    await pg.getByText('Read only: this role lacks the permission configure').waitFor();
    expect(await pg.getByRole('button', { name: 'Save endpoint' }).count()).toBe(0);
    expect(await pg.locator('fieldset.form-fields[disabled]').count()).toBe(1);
    expect(errors()).toEqual([]);
  });
});
