import { DomainError } from '@hookrail/domain';
import type { Store } from '@hookrail/store';
import { assignedRolesOf } from '../auth/assigned-roles';
import { combineRoles, consoleRole, holdsAnyRole } from '../auth/group-roles';
import type { SessionClaims } from './console-session';

const ended = (why: string) =>
  new DomainError('unauthenticated', `your identity provider ended this session (${why}): sign in again`);

/**
 * A person's session as it counts for this call: refused when the provider ended their sessions
 * after this one began (back-channel logout), else their groups' roles (kept in the cookie)
 * combined with those an owner assigned them (read now, so a change counts at once).
 */
export function personSession(store: Pick<Store, 'people' | 'members'>) {
  return async (claims: SessionClaims): Promise<SessionClaims> => {
    const user = claims.user;
    if (claims.kind !== 'user' || !user) return claims;
    const assigned = await assignedRolesOf(store, user.sub);
    if (assigned.sessionsEndedAt && (user.signed_in_at ?? 0) <= assigned.sessionsEndedAt.getTime())
      throw ended(`signed out at the provider at ${assigned.sessionsEndedAt.toISOString()}`);
    const roles = combineRoles(user.roles, assigned.roles);
    if (!holdsAnyRole(roles)) throw ended('you no longer hold any role in Hookrail');
    const { role, projectId } = consoleRole(roles);
    const { projectId: _shown, ...rest } = claims;
    return { ...rest, user: { ...user, roles }, role, ...(projectId && { projectId }) };
  };
}
