import { hashSecret } from '@hookrail/domain';
import { GatewayHarness } from '../testing/gateway-harness';

describe('portal links API (operations 6, 7, 8, list, refresh_token, revoke)', () => {
  const h = new GatewayHarness();
  let p: Awaited<ReturnType<GatewayHarness['createProject']>>;
  const endpoints: string[] = [];
  beforeAll(async () => {
    await h.start({
      HOOKRAIL_ENCRYPTION_KEY: 'portal-test-key',
      HOOKRAIL_PUBLIC_URL: 'https://hooks.example.com',
    });
    p = await h.createProject();
    for (const [name, owner] of [
      ['a', 'cust-1'],
      ['b', 'cust-1'],
      ['c', 'cust-2'],
    ])
      endpoints.push(
        (
          await h.call('POST', `/v1/projects/${p.id}/endpoints`, {
            key: p.key,
            body: { name, url: 'https://e.com', owner_id: owner },
          })
        ).body.data.uid,
      );
  });
  afterAll(() => h.stop());

  const base = () => `/v1/projects/${p.id}/portal-links`;

  /** Follows a link's `url` as its holder would: the page, then the portal API with the url's token. */
  async function openPortal(url: string) {
    const u = new URL(url);
    expect(u.origin).toBe('https://hooks.example.com');
    const page = await fetch(`${h.gateway.url}${u.pathname}${u.search}`);
    expect(page.status).toBe(200);
    const token = u.searchParams.get('token');
    const res = await fetch(`${h.gateway.url}/portal-api/link`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    return { status: res.status, body: (await res.json()) as { data: { uid: string } } };
  }

  it('creates a link (201) that inherits every endpoint of its owner, with token and url', async () => {
    const res = await h.call('POST', base(), {
      key: p.key,
      body: { name: 'cust-1 portal', owner_id: 'cust-1', can_manage_endpoint: true },
    });
    expect(res.status).toBe(201);
    const link = res.body.data;
    expect(link).toMatchObject({
      owner_id: 'cust-1',
      auth_type: 'static_token',
      auth_key: '',
      endpoint_count: 2,
      can_manage_endpoint: true,
    });
    expect(link.endpoints_metadata.map((e: { uid: string }) => e.uid)).toEqual([endpoints[0], endpoints[1]]);
    expect(link.url).toBe(`https://hooks.example.com/portal?token=${link.token}`);
    const opened = await openPortal(link.url);
    expect(opened.status).toBe(200);
    expect(opened.body.data.uid).toBe(link.uid);
    const stored = await h.store.portalLinks.findById(p.id, link.uid);
    expect(stored?.token_hash).toBe(hashSecret(link.token));
    expect(stored?.token).not.toBe(link.token);

    // an endpoint created later with the same owner is picked up at read time
    const later = (
      await h.call('POST', `/v1/projects/${p.id}/endpoints`, {
        key: p.key,
        body: { name: 'd', url: 'https://e.com', owner_id: 'cust-1' },
      })
    ).body.data.uid;
    const read = await h.call('GET', `${base()}/${link.uid}`, { key: p.key });
    expect(read.status).toBe(200);
    expect(read.body.data.endpoint_count).toBe(3);
    expect(read.body.data.endpoints_metadata.map((e: { uid: string }) => e.uid)).toContain(later);
    expect(read.body.data.token).toBe(link.token);
  });

  it('honours the deprecated endpoints list and validates it', async () => {
    const res = await h.call('POST', base(), {
      key: p.key,
      body: { name: 'by ids', endpoints: [endpoints[2]] },
    });
    expect(res.status).toBe(201);
    expect(res.body.data.endpoint_count).toBe(1);
    const missing = await h.call('POST', base(), { key: p.key, body: { name: 'nothing' } });
    expect(missing.status).toBe(400);
    expect(missing.body.data.errors[0].field).toBe('owner_id');
    const unknown = await h.call('POST', base(), {
      key: p.key,
      body: { name: 'x', endpoints: ['01ARZ3NDEKTSV4RRFFQ69G5FAV'] },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.data.errors[0].field).toBe('endpoints.0');
    for (const [body, field] of [
      [{ name: 'x', owner_id: 'o', auth_type: 'password' }, 'auth_type'],
      [{ name: 'x', owner_id: 'o', can_manage_endpoint: 'yes' }, 'can_manage_endpoint'],
      [{ owner_id: 'o' }, 'name'],
      [{ name: 'x', owner_id: 'o', extra: 1 }, 'extra'],
    ] as [unknown, string][]) {
      const res2 = await h.call('POST', base(), { key: p.key, body });
      expect(res2.status).toBe(400);
      expect(res2.body.data.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
  });

  it('issues a one-hour auth key for refresh_token links, re-issued by refresh_token', async () => {
    const res = await h.call('POST', base(), {
      key: p.key,
      body: { name: 'refresh', owner_id: 'cust-2', auth_type: 'refresh_token' },
    });
    const link = res.body.data;
    expect(link.auth_key).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(Date.parse(link.auth_key_expires_at) - Date.now()).toBeGreaterThan(3500_000);
    const refreshed = await h.call('GET', `${base()}/${link.uid}/refresh_token`, { key: p.key });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.data.auth_key).not.toBe(link.auth_key);
    const stored = await h.store.portalLinks.findById(p.id, link.uid);
    expect(stored?.auth_key_hash).toBe(hashSecret(refreshed.body.data.auth_key));
    const staticLink = (await h.call('POST', base(), { key: p.key, body: { name: 's', owner_id: 'x' } })).body
      .data;
    expect((await h.call('GET', `${base()}/${staticLink.uid}/refresh_token`, { key: p.key })).status).toBe(
      400,
    );
  });

  it('gives a refresh_token link a url carrying the auth key just issued, which opens the portal', async () => {
    const link = (
      await h.call('POST', base(), {
        key: p.key,
        body: { name: 'refresh url', owner_id: 'cust-2', auth_type: 'refresh_token' },
      })
    ).body.data;
    expect(link.url).toBe(`https://hooks.example.com/portal?token=${link.auth_key}`);
    const opened = await openPortal(link.url);
    expect(opened.status).toBe(200);
    expect(opened.body.data.uid).toBe(link.uid);

    const refreshed = (await h.call('GET', `${base()}/${link.uid}/refresh_token`, { key: p.key })).body.data;
    expect(refreshed.url).toBe(`https://hooks.example.com/portal?token=${refreshed.auth_key}`);
    expect((await openPortal(refreshed.url)).status).toBe(200);
    // The previous key stopped working; the long-lived token never opens a refresh_token link.
    expect((await openPortal(link.url)).status).toBe(401);
    expect((await openPortal(`https://hooks.example.com/portal?token=${link.token}`)).status).toBe(401);

    // Reads cannot show the key (only its hash is stored): the url carries no credential.
    const read = (await h.call('GET', `${base()}/${link.uid}`, { key: p.key })).body.data;
    expect(read.auth_key).toBe('');
    expect(read.url).toBe('https://hooks.example.com/portal');
    expect((await openPortal(read.url)).status).toBe(401);

    // Switching a static link to refresh_token issues a key, carried by the url of that response.
    const s = (await h.call('POST', base(), { key: p.key, body: { name: 'switch', owner_id: 'cust-2' } }))
      .body.data;
    const switched = (
      await h.call('PUT', `${base()}/${s.uid}`, { key: p.key, body: { auth_type: 'refresh_token' } })
    ).body.data;
    expect(switched.url).toBe(`https://hooks.example.com/portal?token=${switched.auth_key}`);
    expect((await openPortal(switched.url)).status).toBe(200);
    expect((await openPortal(s.url)).status).toBe(401);
  });

  it('updates a link (200) and revokes it', async () => {
    const link = (await h.call('POST', base(), { key: p.key, body: { name: 'upd', owner_id: 'cust-1' } }))
      .body.data;
    const upd = await h.call('PUT', `${base()}/${link.uid}`, {
      key: p.key,
      body: { name: 'renamed', owner_id: 'cust-2', can_manage_endpoint: true },
    });
    expect(upd.status).toBe(200);
    expect(upd.body.data).toMatchObject({
      name: 'renamed',
      owner_id: 'cust-2',
      endpoint_count: 1,
      token: link.token,
    });
    const roundTrip = await h.call('PUT', `${base()}/${link.uid}`, { key: p.key, body: upd.body.data });
    expect(roundTrip.status).toBe(200);
    expect((await h.call('PUT', `${base()}/${link.uid}/revoke`, { key: p.key })).status).toBe(200);
    expect((await h.call('GET', `${base()}/${link.uid}`, { key: p.key })).status).toBe(404);
  });

  it('isolates projects and lists links across pages', async () => {
    const other = await h.createProject();
    const link = (await h.call('POST', base(), { key: p.key, body: { name: 'iso', owner_id: 'cust-1' } }))
      .body.data;
    const theirs = `/v1/projects/${other.id}/portal-links/${link.uid}`;
    expect((await h.call('GET', theirs, { key: other.key })).status).toBe(404);
    expect((await h.call('PUT', theirs, { key: other.key, body: { name: 'x' } })).status).toBe(404);
    expect((await h.call('PUT', `${theirs}/revoke`, { key: other.key })).status).toBe(404);
    expect((await h.call('GET', `${base()}/${link.uid}`, { key: other.key })).status).toBe(403);
    // a link of another project cannot list this project's endpoints
    const foreign = await h.call('POST', `/v1/projects/${other.id}/portal-links`, {
      key: other.key,
      body: { name: 'f', owner_id: 'cust-1' },
    });
    expect(foreign.body.data.endpoint_count).toBe(0);

    const first = await h.call('GET', `${base()}?perPage=2`, { key: p.key });
    expect(first.body.data.content).toHaveLength(2);
    expect(first.body.data.pagination.has_next_page).toBe(true);
    const second = await h.call(
      'GET',
      `${base()}?perPage=2&next_page_cursor=${first.body.data.pagination.next_page_cursor}`,
      { key: p.key },
    );
    expect(second.body.data.content.length).toBeGreaterThan(0);
    expect(second.body.data.content[0].uid < first.body.data.content[1].uid).toBe(true);
  });
});
