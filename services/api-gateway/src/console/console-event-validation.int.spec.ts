import { waitFor } from '@hookrail/testkit';
import { GatewayHarness } from '../testing/gateway-harness';
import { consoleWithDispatcher } from './testing/console-with-dispatcher';
import { screenshot, seriousViolations } from '../portal/testing/portal-browser';

jest.setTimeout(120_000);

/**
 * Event validation from the console, through the real dispatcher: the project's mode set in the
 * settings form, then an event whose data breaks its type's schema accepted (warn) and shown on
 * its page with each failing path.
 */
describe('console: event validation', () => {
  const h = new GatewayHarness();
  const { page, receiver } = consoleWithDispatcher(h);

  it('sets warn in the project settings, and shows the failing paths of an event accepted under it', async () => {
    const p = await h.createProject();
    const created = await h.call('POST', `/v1/projects/${p.id}/event-types`, {
      key: p.key,
      body: {
        name: 'invoice.paid',
        json_schema: {
          type: 'object',
          required: ['amount'],
          properties: { amount: { type: 'integer' }, currency: { type: 'string', minLength: 3 } },
        },
      },
    });
    expect(created.status).toBe(201);

    await page().goto(`${h.gateway.url}/console/projects/${p.id}/settings`);
    await page().locator('#key').fill(p.key);
    await page().getByRole('button', { name: 'Sign in' }).click();
    const mode = page().locator('#project-form-config-event_validation-mode');
    await mode.waitFor();
    expect(await mode.inputValue()).toBe('off');
    await mode.selectOption('warn');
    await page().selectOption('#project-form-config-event_validation-unknown_types', 'refuse');
    await page().locator('#project-form button[type="submit"]').click();
    await page().locator('#toast', { hasText: 'Settings saved' }).waitFor();
    const project = await h.call('GET', `/v1/projects/${p.id}`, { key: p.key });
    expect(project.body.data.config.event_validation).toEqual({ mode: 'warn', unknown_types: 'refuse' });

    const endpoint = await h.call('POST', `/v1/projects/${p.id}/endpoints`, {
      key: p.key,
      body: { name: 'billing', url: `${receiver().url}/billing` },
    });
    const send = (event_type: string, data: unknown) =>
      h.call('POST', `/v1/projects/${p.id}/events`, {
        key: p.key,
        body: { endpoint_id: endpoint.body.data.uid, event_type, data },
      });
    // unknown types are refused now; a type of the catalog with bad data is accepted with warnings
    expect((await send('invoice.unknown', {})).status).toBe(400);
    const accepted = await send('invoice.paid', { amount: 'twelve', currency: 'E' });
    expect(accepted.status).toBe(201);
    const id = accepted.body.data.uid as string;

    await page().goto(`${h.gateway.url}/console/projects/${p.id}/events/${id}`);
    await waitFor(
      'the event stored and shown',
      async () => {
        if ((await page().locator('#validation-errors').count()) > 0) return true;
        await page().reload();
        await page().waitForTimeout(500);
        return undefined;
      },
      { timeoutMs: 40_000 },
    );
    const shown = await page().locator('#validation-errors').innerText();
    expect(shown).toContain("Does not match its event type's schema");
    expect(shown).toMatch(/data\.amount\s+must be integer/);
    expect(shown).toMatch(/data\.currency\s+must NOT have fewer than 3 characters/);
    expect(await seriousViolations(page())).toEqual([]);
    await screenshot(page(), 'console-event-validation-01-warned');
  });
});
