import type { AuditRecord } from '@hookrail/api-contract';
import { newId } from '@hookrail/domain';
import { waitFor } from '@hookrail/testkit';
import { ADMIN_KEY, GatewayHarness } from '../testing/gateway-harness';

jest.setTimeout(60_000);

/**
 * Roles an owner assigns through the API (the console calls the same operations): per project and
 * on the instance, only by an owner, each change recorded as member.role_changed, before → after.
 */
describe('members: roles assigned by an owner', () => {
  const h = new GatewayHarness();
  let project: { id: string; key: string };
  let viewerKey: string;
  let audit: AuditRecord[];
  const sub = `user-${newId()}`;
  beforeAll(async () => {
    await h.start();
    audit = (await h.collect('audit')) as AuditRecord[];
    project = await h.createProject();
    const viewer = await h.call('POST', `/v1/projects/${project.id}/keys`, {
      key: project.key,
      body: { name: 'viewer', role: 'viewer' },
    });
    viewerKey = viewer.body.data.key;
    // people come from single sign-on: recorded here as a verified sign-in would
    const groupRoles = { instance: null, projects: { [project.id]: 'viewer' as const } };
    await h.store.people.recordSignIn(
      sub,
      { email: 'dana@example.test', name: 'Dana', groupRoles },
      new Date(),
    );
  });
  afterAll(() => h.stop());

  const members = `/v1/projects/${'{p}'}/members`;
  const path = (rest = '') => `${members.replace('{p}', project.id)}${rest}`;
  const roleChanges = (projectId: string | null) =>
    audit.filter(
      (r) => r.operation === 'member.role_changed' && r.project_id === projectId && r.resource.id === sub,
    );

  it('grants, changes and revokes a project role; the role that counts is the stronger of groups and assignment', async () => {
    const listed = await h.call('GET', path(), { key: project.key });
    expect(listed.status).toBe(200);
    expect(listed.body.data.find((m: { user_id: string }) => m.user_id === sub)).toMatchObject({
      email: 'dana@example.test',
      assigned_role: null,
      group_role: 'viewer',
      role: 'viewer',
    });
    const granted = await h.call('PUT', path(`/${sub}`), { key: project.key, body: { role: 'operator' } });
    expect(granted.status).toBe(200);
    expect(granted.body.data).toMatchObject({
      assigned_role: 'operator',
      group_role: 'viewer',
      role: 'operator',
    });
    await h.call('PUT', path(`/${sub}`), { key: project.key, body: { role: 'admin' } });
    expect((await h.call('GET', path(`/${sub}`), { key: project.key })).body.data.role).toBe('admin');
    const revoked = await h.call('DELETE', path(`/${sub}`), { key: project.key });
    expect(revoked.body.data).toMatchObject({ assigned_role: null, role: 'viewer' });

    const changes = await waitFor('three role changes', async () => {
      const seen = roleChanges(project.id);
      return seen.length >= 3 ? seen : undefined;
    });
    expect(changes.map((r) => r.changes?.role)).toEqual([
      { before: null, after: 'operator' },
      { before: 'operator', after: 'admin' },
      { before: 'admin', after: null },
    ]);
    expect(changes[0].actor).toMatchObject({ kind: 'api_key', key_name: 'default', role: 'owner' });
    expect(changes[0].changes?.email?.after).toBe('dana@example.test');
  });

  it('refuses a non-owner with a 403 naming the permission, and records nothing changed', async () => {
    const res = await h.call('PUT', path(`/${sub}`), { key: viewerKey, body: { role: 'owner' } });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe("this key's role viewer lacks the permission own");
    expect((await h.call('GET', path(), { key: viewerKey })).status).toBe(403);
  });

  it('answers 404 for a person who never signed in and 400 for a role that does not exist', async () => {
    const unknown = await h.call('PUT', path('/user-nobody'), { key: project.key, body: { role: 'viewer' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toMatch(/nobody with this user id has signed in/);
    const bad = await h.call('PUT', path(`/${sub}`), { key: project.key, body: { role: 'superuser' } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/role/);
  });

  it("keeps a person's role in one project out of another's: not shown there, not revoked from there", async () => {
    await h.call('PUT', path(`/${sub}`), { key: project.key, body: { role: 'admin' } });
    const other = await h.createProject();
    const seen = await h.call('GET', `/v1/projects/${other.id}/members/${sub}`, { key: other.key });
    expect(seen.body.data).toMatchObject({ assigned_role: null, group_role: null, role: null });
    await h.call('DELETE', `/v1/projects/${other.id}/members/${sub}`, { key: other.key });
    expect((await h.call('GET', path(`/${sub}`), { key: project.key })).body.data.assigned_role).toBe(
      'admin',
    );
    const byOtherKey = await h.call('GET', path(`/${sub}`), { key: other.key });
    expect(byOtherKey.status).toBe(403);
    await h.call('DELETE', path(`/${sub}`), { key: project.key });
  });

  it('sets the instance role with the admin key only; a project key is refused', async () => {
    const set = await h.call('PUT', `/v1/members/${sub}`, { key: ADMIN_KEY, body: { role: 'viewer' } });
    expect(set.status).toBe(200);
    expect(set.body.data).toMatchObject({ assigned_role: 'viewer', role: 'viewer' });
    const byKey = await h.call('PUT', `/v1/members/${sub}`, { key: project.key, body: { role: 'owner' } });
    expect(byKey.status).toBe(403);
    const cleared = await h.call('DELETE', `/v1/members/${sub}`, { key: ADMIN_KEY });
    expect(cleared.body.data.assigned_role).toBeNull();
    const changes = await waitFor('two instance role changes', async () => {
      const seen = roleChanges(null);
      return seen.length >= 2 ? seen : undefined;
    });
    expect(changes.map((r) => r.changes?.role)).toEqual([
      { before: null, after: 'viewer' },
      { before: 'viewer', after: null },
    ]);
    expect(changes[0].actor).toMatchObject({ kind: 'admin_key', role: 'owner' });
  });
});
