import { asProjectId, hashSecret, newId } from '@hookrail/domain';
import { makeEvent } from '@hookrail/testkit';
import { ADMIN_KEY, GatewayHarness } from '../testing/gateway-harness';
import { formatProjectKey } from './principal';
import { issueApiKey } from '../projects/issue-api-key.usecase';

jest.setTimeout(60_000);

const ROLE_NAMES = ['owner', 'admin', 'operator', 'viewer'] as const;
type RoleName = (typeof ROLE_NAMES)[number];

/**
 * Every role against one operation of each kind of permission, on the real gateway: a role holds its
 * row of the role table and is refused the rest with a 403 naming what it lacks.
 */
describe('roles on the management API', () => {
  const h = new GatewayHarness();
  let project: { id: string; key: string };
  const keys = {} as Record<RoleName, string>;
  beforeAll(async () => {
    await h.start();
    project = await h.createProject();
    for (const role of ROLE_NAMES) {
      const res = await h.call('POST', `/v1/projects/${project.id}/keys`, {
        key: project.key,
        body: { name: `${role} key`, role },
      });
      expect(res.status).toBe(201);
      keys[role] = res.body.data.key;
    }
  });
  afterAll(() => h.stop());

  const calls = () => ({
    read: ['GET', `/v1/projects/${project.id}/endpoints`, undefined],
    // an unknown delivery: a 404 once the permission is held
    retry: ['PUT', `/v1/projects/${project.id}/eventdeliveries/${newId()}/resend`, undefined],
    // a body the validator refuses: a 400 once the permission is held, nothing is created
    configure: ['POST', `/v1/projects/${project.id}/endpoints`, { url: 'not a url' }],
    own: ['GET', `/v1/projects/${project.id}/keys`, undefined],
  });
  const allowed: Record<RoleName, string[]> = {
    owner: ['read', 'retry', 'configure', 'own'],
    admin: ['read', 'retry', 'configure'],
    operator: ['read', 'retry'],
    viewer: ['read'],
  };

  it.each(ROLE_NAMES)(
    '%s: holds its permissions, is refused the others naming the permission',
    async (role) => {
      for (const [permission, [method, path, body]] of Object.entries(calls())) {
        const res = await h.call(method as string, path as string, { key: keys[role], body });
        if (allowed[role].includes(permission)) {
          expect([permission, res.status]).not.toEqual([permission, 403]);
        } else {
          expect([permission, res.status]).toEqual([permission, 403]);
          expect(res.body.message).toBe(`this key's role ${role} lacks the permission ${permission}`);
        }
      }
    },
  );

  it('empties payloads for a viewer, unless its key was issued with view_payloads', async () => {
    const event = await makeEvent(h.store, asProjectId(project.id), { raw: '{"card":"4242"}' });
    const reader = await h.call('POST', `/v1/projects/${project.id}/keys`, {
      key: project.key,
      body: { name: 'support', role: 'viewer', view_payloads: true },
    });
    const read = (key: string) => h.call('GET', `/v1/projects/${project.id}/events/${event._id}`, { key });
    expect((await read(keys.viewer)).body.data).toMatchObject({ uid: event._id, data: null, raw: '' });
    expect((await read(reader.body.data.key)).body.data).toMatchObject({ data: { card: '4242' } });
    expect((await read(keys.operator)).body.data).toMatchObject({ data: { card: '4242' } });
  });

  it('keeps full access for a key issued before roles and for the admin key', async () => {
    // as stored before roles: no access_role
    const id = newId();
    await h.store.apiKeys.insert(asProjectId(project.id), {
      _id: id,
      name: 'old',
      secret_hash: hashSecret('s'.repeat(20)),
      role: 'admin',
      expires_at: null,
      last_used_at: null,
    });
    for (const key of [formatProjectKey(id, 's'.repeat(20)), ADMIN_KEY]) {
      const res = await h.call('GET', `/v1/projects/${project.id}/keys`, { key });
      expect(res.status).toBe(200);
    }
  });

  it('lists keys with their role, name and expiry, in Convoy`s role shape too', async () => {
    const expiresAt = new Date(Date.now() + 3600_000).toISOString();
    const created = await h.call('POST', `/v1/projects/${project.id}/keys`, {
      key: project.key,
      body: { name: 'dashboard', role: 'viewer', view_payloads: true, expires_at: expiresAt },
    });
    expect(created.status).toBe(201);
    const list = await h.call('GET', `/v1/projects/${project.id}/keys?perPage=100`, { key: project.key });
    const listed = list.body.data.content.find((k: { uid: string }) => k.uid === created.body.data.uid);
    expect(listed).toMatchObject({
      name: 'dashboard',
      role: { type: 'project_viewer', project: project.id, name: 'viewer' },
      view_payloads: true,
      expires_at: expiresAt,
    });
    const owner = list.body.data.content.find((k: { name: string }) => k.name === 'owner key');
    expect(owner.role).toEqual({ type: 'project_admin', project: project.id, name: 'owner' });
  });

  it('refuses a role it does not know, an expiry in the past and two expiries', async () => {
    const create = (body: object) =>
      h.call('POST', `/v1/projects/${project.id}/keys`, { key: project.key, body });
    expect((await create({ name: 'x', role: 'superuser' })).status).toBe(400);
    const past = await create({ name: 'x', expires_at: new Date(Date.now() - 1000).toISOString() });
    expect([past.status, past.body.message]).toEqual([400, 'expires_at must be in the future']);
    const both = await create({
      name: 'x',
      expires_in: 600,
      expires_at: new Date(Date.now() + 9e6).toISOString(),
    });
    expect(both.status).toBe(400);
  });

  it('answers 401 naming the expiry for a key past it, on the API and at console sign-in', async () => {
    const expired = await issueApiKey(h.store, asProjectId(project.id), {
      name: 'old',
      expiresAt: new Date(Date.now() - 1000),
    });
    const res = await h.call('GET', `/v1/projects/${project.id}/endpoints`, { key: expired.key });
    expect(res.status).toBe(401);
    expect(res.body.message).toMatch(/^API key expired at \d{4}-/);
    const signIn = await fetch(`${h.gateway.url}/console/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key: expired.key }),
    });
    expect(signIn.status).toBe(401);
    expect(((await signIn.json()) as { message: string }).message).toMatch(/^API key expired at/);
  });

  it('gives a console session the key`s role: its permissions, its refusals', async () => {
    const signIn = await fetch(`${h.gateway.url}/console/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key: keys.viewer }),
    });
    const session = ((await signIn.json()) as { data: Record<string, unknown> }).data;
    expect(session).toMatchObject({ role: 'viewer', permissions: ['none', 'read'], view_payloads: false });
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0];
    const refused = await fetch(`${h.gateway.url}/api/v1/projects/${project.id}/endpoints`, {
      method: 'POST',
      headers: {
        cookie,
        'content-type': 'application/json',
        [session.csrf_header as string]: session.csrf_token as string,
      },
      body: JSON.stringify({ url: 'https://example.com' }),
    });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { message: string }).message).toBe(
      "this session's role viewer lacks the permission configure",
    );
  });
});
