import { ADMIN_KEY, GatewayHarness } from '../testing/gateway-harness';
import { seedLink } from '../portal/testing/portal-fixtures';

/**
 * The project settings every endpoint create and the portal read: the signing scheme of new
 * endpoints (`config.signature.advanced_signatures_default`), the portal's branding
 * (`config.portal_branding`), their defaults and their 400s; and the project list's search.
 */
describe('project settings for new endpoints and the portal', () => {
  const h = new GatewayHarness();
  beforeAll(() => h.start());
  afterAll(() => h.stop());

  const get = async (pid: string, key: string) => {
    const res = await h.call('GET', `/v1/projects/${pid}`, { key });
    expect(res.status).toBe(200);
    return res.body.data;
  };
  const update = (pid: string, key: string, body: unknown) =>
    h.call('PUT', `/v1/projects/${pid}`, { key, body });
  const createEndpoint = async (pid: string, key: string, body: Record<string, unknown> = {}) => {
    const res = await h.call('POST', `/v1/projects/${pid}/endpoints`, {
      key,
      body: { name: `e-${Math.random()}`, url: 'https://acme.example/hook', ...body },
    });
    expect(res.status).toBe(201);
    return res.body.data;
  };
  const fieldsOf = (res: { body: { data: { errors?: { field: string }[] } } }) =>
    (res.body.data.errors ?? []).map((e) => e.field);

  it('signs new endpoints with the simple scheme by default, as the API always did', async () => {
    const p = await h.createProject();
    const project = await get(p.id, p.key);
    expect(project.config.signature.advanced_signatures_default).toBe(false);
    expect(project.config.signature.header).toBe('X-Hookrail-Signature');
    expect((await createEndpoint(p.id, p.key)).advanced_signatures).toBe(false);
    expect((await createEndpoint(p.id, p.key, { advanced_signatures: true })).advanced_signatures).toBe(true);
  });

  it('takes the project default in the management API and the portal; an explicit choice still wins', async () => {
    const p = await h.createProject('outgoing', {
      signature: { header: 'X-Acme-Signature', advanced_signatures_default: true },
    });
    const project = await get(p.id, p.key);
    expect(project.config.signature).toMatchObject({
      header: 'X-Acme-Signature',
      advanced_signatures_default: true,
      versions: [{ hash: 'SHA256', encoding: 'hex' }],
    });
    expect((await createEndpoint(p.id, p.key)).advanced_signatures).toBe(true);
    expect((await createEndpoint(p.id, p.key, { advanced_signatures: false })).advanced_signatures).toBe(
      false,
    );

    const { token } = await seedLink(h.store, p.id, { owner_id: 'acme', can_manage_endpoint: true });
    const viaPortal = await h.portal('POST', '/endpoints', token, {
      name: 'portal-made',
      url: 'https://acme.example/portal',
    });
    expect(viaPortal.status).toBe(201);
    expect(viaPortal.body.data.advanced_signatures).toBe(true);

    // back to simple: a merge of the signature settings, the header kept
    const back = await update(p.id, p.key, { config: { signature: { advanced_signatures_default: false } } });
    expect(back.status).toBe(202);
    expect(back.body.data.config.signature.header).toBe('X-Acme-Signature');
    expect((await createEndpoint(p.id, p.key)).advanced_signatures).toBe(false);
    const portalAgain = await h.portal('POST', '/endpoints', token, {
      name: 'portal-made-2',
      url: 'https://acme.example/portal2',
    });
    expect(portalAgain.body.data.advanced_signatures).toBe(false);
  });

  it('refuses a default that is not a boolean with a 400 naming the field', async () => {
    const p = await h.createProject();
    const res = await update(p.id, p.key, { config: { signature: { advanced_signatures_default: 'yes' } } });
    expect(res.status).toBe(400);
    expect(fieldsOf(res)).toContain('config.signature.advanced_signatures_default');
  });

  it('stores the portal branding, shows it to the portal, and empties a member left out', async () => {
    const p = await h.createProject();
    expect((await get(p.id, p.key)).config.portal_branding).toEqual({});
    const { token } = await seedLink(h.store, p.id, { owner_id: 'acme' });
    expect((await h.portal('GET', '/link', token)).body.data.branding).toEqual({});

    const branding = {
      name: 'Acme webhooks',
      logo_url: 'https://cdn.acme.example/logo.png',
      primary_color: '#aa3300',
      background_color: '#FAFAF5',
    };
    const saved = await update(p.id, p.key, { config: { portal_branding: branding } });
    expect(saved.status).toBe(202);
    expect(saved.body.data.config.portal_branding).toEqual(branding);
    expect((await h.portal('GET', '/link', token)).body.data.branding).toEqual(branding);

    // sent whole: the members left out are removed (a form empties a field this way)
    const fewer = await update(p.id, p.key, { config: { portal_branding: { name: 'Acme' } } });
    expect(fewer.body.data.config.portal_branding).toEqual({ name: 'Acme' });
    // a config change without it keeps it
    const other = await update(p.id, p.key, { config: { disable_endpoint: true } });
    expect(other.body.data.config.portal_branding).toEqual({ name: 'Acme' });
    // "" and null are "not set", as for every field of the API (Convoy's clients send them)
    const emptied = await update(p.id, p.key, {
      config: { portal_branding: { name: '', logo_url: null, primary_color: '' } },
    });
    expect(emptied.status).toBe(202);
    expect(emptied.body.data.config.portal_branding).toEqual({});
  });

  it('refuses bad branding with a 400 naming the field', async () => {
    const p = await h.createProject();
    const cases: [Record<string, unknown>, string][] = [
      [{ logo_url: 'http://acme.example/logo.png' }, 'config.portal_branding.logo_url'],
      [{ logo_url: 'not a url' }, 'config.portal_branding.logo_url'],
      [{ primary_color: 'red' }, 'config.portal_branding.primary_color'],
      [{ primary_color: '#abc' }, 'config.portal_branding.primary_color'],
      [{ background_color: '#12345g' }, 'config.portal_branding.background_color'],
      [{ name: 'x'.repeat(101) }, 'config.portal_branding.name'],
      [{ font: 'Comic Sans' }, 'config.portal_branding.font'],
    ];
    for (const [portal_branding, field] of cases) {
      const res = await update(p.id, p.key, { config: { portal_branding } });
      expect({ portal_branding, status: res.status }).toEqual({ portal_branding, status: 400 });
      expect(fieldsOf(res)).toContain(field);
    }
    // nothing was stored by the refused calls
    expect((await get(p.id, p.key)).config.portal_branding).toEqual({});
  });

  it('searches the project list by id or by a part of the name, ignoring case', async () => {
    const tag = `zq${Date.now().toString(36)}`;
    const made = [];
    for (const name of [`${tag}-Billing`, `${tag}-shipping`, 'unrelated']) {
      const res = await h.call('POST', '/v1/projects', { key: ADMIN_KEY, body: { name, type: 'outgoing' } });
      expect(res.status).toBe(201);
      made.push(res.body.data);
    }
    const search = async (q: string) => {
      const res = await h.call('GET', `/v1/projects?perPage=100&q=${encodeURIComponent(q)}`, {
        key: ADMIN_KEY,
      });
      expect(res.status).toBe(200);
      return res.body.data.content.map((p: { name: string }) => p.name).sort();
    };
    expect(await search(tag.toUpperCase())).toEqual([`${tag}-Billing`, `${tag}-shipping`]);
    expect(await search(`${tag}-bill`)).toEqual([`${tag}-Billing`]);
    expect(await search(made[2].uid)).toEqual(['unrelated']);
    const long = await h.call('GET', `/v1/projects?q=${'x'.repeat(201)}`, { key: ADMIN_KEY });
    expect(long.status).toBe(400);
    expect(fieldsOf(long)).toContain('q');
  });
});
