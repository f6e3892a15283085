import type { ProjectId } from '@hookrail/domain';
import { waitFor } from '@hookrail/testkit';
import { GatewayHarness } from '../testing/gateway-harness';
import { consoleWithDispatcher } from './testing/console-with-dispatcher';

jest.setTimeout(120_000);

/**
 * docs/ordered-delivery.md in the console: an endpoint whose ordered deliveries wait behind a
 * failed one shows "2 held behind delivery X since …" on its page, and Unblock skips the head
 * (through the real dispatcher) so the held ones go out, in order.
 */
describe('console: a blocked ordering key on the endpoint page', () => {
  const h = new GatewayHarness();
  const { page: currentPage, receiver: currentReceiver } = consoleWithDispatcher(h);

  it('shows the held deliveries behind their head and unblocks them', async () => {
    const p = await h.createProject();
    const projectId = p.id as ProjectId;
    const endpoint = (
      await h.call('POST', `/v1/projects/${p.id}/endpoints`, {
        key: p.key,
        body: { name: 'orders', url: `${currentReceiver().url}/orders` },
      })
    ).body.data.uid as string;
    const sub = await h.call('POST', `/v1/projects/${p.id}/subscriptions`, {
      key: p.key,
      body: { name: 'in order', endpoint_id: endpoint, ordering: 'endpoint' },
    });
    expect(sub.status).toBe(201);
    for (const n of [1, 2, 3]) {
      const event = await h.call('POST', `/v1/projects/${p.id}/events`, {
        key: p.key,
        body: { endpoint_id: endpoint, event_type: 'order.updated', data: { n } },
      });
      expect(event.status).toBe(201);
    }
    // the receiver fails its first request; no retry scheduler runs, so the head waits in Retry
    const head = await waitFor(
      'two deliveries held behind the failed one',
      async () => {
        const [key] = await h.store.ordering.ofEndpoint(projectId, endpoint);
        const held = key && (await h.store.ordering.countHeld(projectId, endpoint, key.key));
        return held === 2 ? key.head : undefined;
      },
      { timeoutMs: 40_000 },
    );
    expect(currentReceiver().requests.map((r) => JSON.parse(r.body).n)).toEqual([1]);

    await currentPage().goto(`${h.gateway.url}/console/projects/${p.id}/endpoints/${endpoint}`);
    await currentPage().locator('#key').fill(p.key);
    await currentPage().getByRole('button', { name: 'Sign in' }).click();
    const blocked = currentPage().locator('#blocked-keys');
    await blocked.waitFor();
    expect(await blocked.innerText()).toContain(`the whole endpoint: 2 held behind delivery ${head} since`);
    await blocked.getByRole('button', { name: 'Unblock' }).click();
    await currentPage().locator('dialog#confirm[open]').getByRole('button', { name: 'Unblock' }).click();
    await currentPage().locator('#toast', { hasText: 'Unblock requested' }).waitFor();

    await waitFor('the held deliveries sent', () => currentReceiver().requests.length === 3 || undefined);
    expect(currentReceiver().requests.map((r) => JSON.parse(r.body).n)).toEqual([1, 2, 3]);
    const skipped = await h.store.deliveries.findById(projectId, head);
    expect(skipped?.status).toBe('Discarded');
    expect(skipped?.status_reason).toBe('skipped by an operator to unblock its ordering key');
    // once nothing is held the section goes away
    await waitFor('no blocked key left', async () =>
      (await h.store.ordering.ofEndpoint(projectId, endpoint)).length === 0 ? true : undefined,
    );
    await currentPage().reload();
    await currentPage().getByRole('heading', { name: 'Signing secrets' }).waitFor();
    expect(await currentPage().locator('#blocked-keys').count()).toBe(0);
  });
});
