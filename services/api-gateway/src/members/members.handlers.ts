import { memberOperations, type Role } from '@hookrail/api-contract';
import { NotFoundError } from '@hookrail/domain';
import type { PersonDoc } from '@hookrail/store';
import type { GatewayDeps } from '../deps';
import type { Handlers } from '../http/call';
import { presentMember } from './member.presenter';
import { recordRoleChange } from './role-change';

/** The people an owner assigns roles to: everyone who signed in through single sign-on. */
export function memberHandlers(deps: GatewayDeps): Handlers<typeof memberOperations> {
  const { store } = deps;
  const person = async (userId: string): Promise<PersonDoc> => {
    const found = await store.people.find(userId);
    if (!found) throw new NotFoundError(`person ${userId} (nobody with this user id has signed in)`);
    return found;
  };
  return {
    async listProjectMembers({ project }) {
      const [people, members] = await Promise.all([store.people.list(), store.members.list(project._id)]);
      const assigned = new Map(members.map((m) => [m.user_id, m.role]));
      return people.map((p) => presentMember(p, assigned.get(p._id) ?? null, project._id));
    },
    async getProjectMember({ project, params }) {
      const who = await person(params.userID);
      return presentMember(who, await store.members.roleOf(project._id, who._id), project._id);
    },
    async setProjectMemberRole({ req, project, params, body, actor }) {
      const who = await person(params.userID);
      const before = await store.members.assign(project._id, who._id, body.role);
      const change = { projectId: project._id, target: { userId: who._id, email: who.email }, before };
      await recordRoleChange(deps, req, actor, { ...change, after: body.role });
      return presentMember(who, body.role, project._id);
    },
    async revokeProjectMemberRole({ req, project, params, actor }) {
      const who = await person(params.userID);
      const before = await store.members.revoke(project._id, who._id);
      const change = { projectId: project._id, target: { userId: who._id, email: who.email }, before };
      await recordRoleChange(deps, req, actor, { ...change, after: null });
      return presentMember(who, null, project._id);
    },
    listInstanceMembers: async () =>
      (await store.people.list()).map((p) => presentMember(p, p.instance_role)),
    getInstanceMember: async ({ params }) => {
      const who = await person(params.userID);
      return presentMember(who, who.instance_role);
    },
    setInstanceMemberRole: ({ req, params, body, actor }) =>
      setInstanceRole(deps, req, actor, params.userID, body.role),
    revokeInstanceMemberRole: ({ req, params, actor }) =>
      setInstanceRole(deps, req, actor, params.userID, null),
  };
}

async function setInstanceRole(
  deps: GatewayDeps,
  req: Parameters<typeof recordRoleChange>[1],
  actor: Parameters<typeof recordRoleChange>[2],
  userId: string,
  role: Role | null,
) {
  const before = await deps.store.people.setInstanceRole(userId, role);
  if (!before) throw new NotFoundError(`person ${userId} (nobody with this user id has signed in)`);
  const target = { userId, email: before.email };
  await recordRoleChange(deps, req, actor, {
    projectId: null,
    target,
    before: before.instance_role,
    after: role,
  });
  return presentMember({ ...before, instance_role: role }, role);
}
