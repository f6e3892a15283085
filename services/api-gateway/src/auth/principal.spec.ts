import type { Request } from 'express';
import type { ConfigCache } from '@hookrail/store';
import { managementOperations } from '@hookrail/api-contract';
import { newId } from '@hookrail/domain';
import { principalAuthenticator, visibleProjects, type Principal } from './principal';

const instanceOp = (id: 'listAuditLog' | 'listProjects') => managementOperations[id];

const person: Principal = {
  via: 'console',
  kind: 'user',
  userId: 'user-dana',
  email: 'dana@example.test',
  name: 'Dana',
  roles: { instance: null, projects: { P1: 'operator' } },
  role: 'viewer',
  viewPayloads: false,
};

const request = (projectID?: string) =>
  ({ headers: {}, params: projectID ? { projectID } : {} }) as unknown as Request;

/** A person's role is the one their groups give in the path's project, decided per call. */
describe("a person's principal", () => {
  const auth = (adminOnly = false) =>
    principalAuthenticator({ cache: {} as ConfigCache, session: async () => person }, adminOnly);

  it("takes the role of the path's project", async () => {
    await expect(auth().authenticate(request('P1'))).resolves.toMatchObject({
      kind: 'user',
      role: 'operator',
    });
  });

  it('refuses a project where the groups give no role, naming it, and the instance without an instance role', async () => {
    await expect(auth().authenticate(request('P2'))).rejects.toThrow(
      'your groups give you no role in project P2',
    );
    const onInstance = await auth(true).authenticate(request());
    expect(() => auth(true).authorize(onInstance, instanceOp('listAuditLog'))).toThrow(
      'this operation needs the instance admin key or an instance role',
    );
  });

  it('lets a person with project roles only list projects (their own, visibleProjects)', async () => {
    const onInstance = await auth(true).authenticate(request());
    expect(() => auth(true).authorize(onInstance, instanceOp('listProjects'))).not.toThrow();
    expect(visibleProjects(onInstance)).toEqual([]); // P1 is no project id
    const id = newId();
    expect(visibleProjects({ ...person, roles: { instance: null, projects: { [id]: 'viewer' } } })).toEqual([
      id,
    ]);
    expect(visibleProjects({ via: 'key', kind: 'admin' })).toBeUndefined();
  });
});
