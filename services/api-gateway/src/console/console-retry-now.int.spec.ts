import { waitFor } from '@hookrail/testkit';
import { GatewayHarness } from '../testing/gateway-harness';
import { consoleWithDispatcher } from './testing/console-with-dispatcher';
import { screenshot, seriousViolations } from '../portal/testing/portal-browser';

jest.setTimeout(120_000);

/**
 * "Retry now" in the console: a delivery waiting for its next retry is sent at once, through the
 * real dispatcher to a real receiver, and the new attempt shows on the delivery's page.
 */
describe('console: retry now of a delivery still retrying', () => {
  const h = new GatewayHarness();
  const { page: currentPage, receiver: currentReceiver } = consoleWithDispatcher(h);

  it('sends the delivery again at once: a second attempt at the receiver, shown on the page', async () => {
    const p = await h.createProject();
    const endpoint = await h.call('POST', `/v1/projects/${p.id}/endpoints`, {
      key: p.key,
      body: { name: 'billing', url: `${currentReceiver().url}/billing` },
    });
    expect(endpoint.status).toBe(201);
    const event = await h.call('POST', `/v1/projects/${p.id}/events`, {
      key: p.key,
      body: { endpoint_id: endpoint.body.data.uid, event_type: 'invoice.paid', data: { n: 1 } },
    });
    expect(event.status).toBe(201);
    // (the first run of a fresh dispatcher waits for its Kafka consumer group: seconds)
    const retrying = await waitFor(
      'the delivery in Retry after a 500',
      async () => {
        const res = await h.call('GET', `/v1/projects/${p.id}/eventdeliveries?status=Retry`, { key: p.key });
        return res.body.data.content[0] as { uid: string; next_attempt_at: string } | undefined;
      },
      { timeoutMs: 40_000 },
    );
    expect(currentReceiver().requests).toHaveLength(1);
    expect(Date.parse(retrying.next_attempt_at)).toBeGreaterThan(Date.now());

    await currentPage().goto(`${h.gateway.url}/console/projects/${p.id}/deliveries/${retrying.uid}`);
    await currentPage().locator('#key').fill(p.key);
    await currentPage().getByRole('button', { name: 'Sign in' }).click();
    await currentPage().getByRole('heading', { name: 'Attempts (1)' }).waitFor();
    expect(await currentPage().getByRole('button', { name: 'Retry', exact: true }).count()).toBe(0);
    await currentPage().getByRole('button', { name: 'Retry now' }).click();
    await currentPage().locator('#toast', { hasText: 'Delivery sent again now' }).waitFor();

    await waitFor(
      'the second attempt at the receiver',
      () => currentReceiver().requests.length === 2 || undefined,
    );
    expect(currentReceiver().requests.map((r) => r.path)).toEqual(['/billing', '/billing']);
    expect(currentReceiver().requests[1].body).toBe(currentReceiver().requests[0].body);
    await waitFor('the delivery delivered', async () => {
      const d = await h.store.deliveries.findById(p.id, retrying.uid);
      return d?.status === 'Success' && d.attempts.length === 2 ? d : undefined;
    });
    // the page follows the delivery on its way: the new attempt shows without a reload
    await currentPage().getByRole('heading', { name: 'Attempts (2)' }).waitFor();
    expect(await currentPage().locator('section.attempt').first().innerText()).toContain('HTTP 200');
    // each attempt shows the body it sent: the bytes the receiver got, read back (issue 33, item 11)
    const shownBody = await currentPage().locator('section.attempt .request-body pre').first().innerText();
    expect(JSON.parse(shownBody)).toEqual(JSON.parse(currentReceiver().requests[1].body));
    expect(shownBody).toContain('"n": 1');
    expect(await currentPage().locator('main .badge').first().innerText()).toBe('Success');
    await screenshot(currentPage(), 'console-08-retry-now');

    expect(await seriousViolations(currentPage())).toEqual([]);
  });

  it('is the management API: a console session needs its anti-CSRF header, a project key reaches its own project', async () => {
    const p = await h.createProject();
    const path = `/api/v1/projects/${p.id}/eventdeliveries/01JX00000000000000000000AA/retry-now`;
    const none = await fetch(`${h.gateway.url}${path}`, { method: 'PUT' });
    expect(none.status).toBe(401);
    const signIn = await fetch(`${h.gateway.url}/console/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key: p.key }),
    });
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0];
    const { csrf_token: csrf } = ((await signIn.json()) as { data: { csrf_token: string } }).data;
    expect((await fetch(`${h.gateway.url}${path}`, { method: 'PUT', headers: { cookie } })).status).toBe(403);
    const missing = await fetch(`${h.gateway.url}${path}`, {
      method: 'PUT',
      headers: { cookie, 'x-hookrail-csrf': csrf },
    });
    expect(missing.status).toBe(404);
    const other = await h.createProject();
    const elsewhere = await fetch(`${h.gateway.url}${path.replace(p.id, other.id)}`, {
      method: 'PUT',
      headers: { cookie, 'x-hookrail-csrf': csrf },
    });
    expect(elsewhere.status).toBe(403);
    const byKey = await h.call(
      'PUT',
      `/v1/projects/${p.id}/eventdeliveries/01JX00000000000000000000AA/retry-now`,
      {
        key: p.key,
      },
    );
    expect(byKey.status).toBe(404);
  });
});
