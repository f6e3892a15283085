import type { MemberResponse, Role } from '@hookrail/api-contract';
import { toTimestamp } from '@hookrail/domain';
import type { PersonDoc } from '@hookrail/store';
import { combineRoles, roleIn } from '../auth/group-roles';

/**
 * A person as a members list shows them in one project (`projectId`) or on the instance
 * (undefined): the role assigned there, what their groups gave at their last sign-in, and the
 * one that counts (the stronger).
 */
export function presentMember(person: PersonDoc, assigned: Role | null, projectId?: string): MemberResponse {
  const groups = person.group_roles ?? { instance: null, projects: {} };
  const mine =
    projectId === undefined
      ? { instance: assigned, projects: {} }
      : { instance: person.instance_role, projects: assigned ? { [projectId]: assigned } : {} };
  const groupRole = projectId === undefined ? groups.instance : roleIn(groups, projectId);
  const role =
    projectId === undefined
      ? combineRoles(groups, mine).instance
      : roleIn(combineRoles(groups, mine), projectId);
  return {
    user_id: person._id,
    email: person.email,
    name: person.name,
    assigned_role: assigned,
    group_role: groupRole,
    role,
    last_sign_in_at: person.last_sign_in_at ? toTimestamp(person.last_sign_in_at) : null,
  };
}
