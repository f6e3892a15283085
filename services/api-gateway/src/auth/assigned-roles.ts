import type { Store } from '@hookrail/store';
import type { PersonRoles } from './group-roles';

/** What the store says of a person: the roles an owner assigned, when their sessions were ended. */
export interface AssignedRoles {
  roles: PersonRoles;
  /** The provider's last back-channel logout for them: sessions signed in before it are refused. */
  sessionsEndedAt: Date | null;
}

/**
 * Read at every call of a person's session (two reads by key, in parallel), not kept in the
 * session cookie: a role granted or revoked in the console, or a logout sent by the provider,
 * counts from the next call on every replica.
 */
export async function assignedRolesOf(
  store: Pick<Store, 'people' | 'members'>,
  sub: string,
): Promise<AssignedRoles> {
  const [person, projects] = await Promise.all([store.people.find(sub), store.members.ofPerson(sub)]);
  return {
    roles: { instance: person?.instance_role ?? null, projects },
    sessionsEndedAt: person?.sessions_ended_at ?? null,
  };
}
