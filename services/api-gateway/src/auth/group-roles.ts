import { ROLES, type Role } from '@hookrail/api-contract';
import type { OidcRoleMapping } from '@hookrail/config';

/** A person's roles, from their groups: on the whole instance (or none), and per project. */
export interface PersonRoles {
  instance: Role | null;
  projects: Record<string, Role>;
}

/** ROLES runs from most to least: the lower index is the stronger role. */
const stronger = (a: Role | null | undefined, b: Role): Role =>
  a && ROLES.indexOf(a) <= ROLES.indexOf(b) ? a : b;

const isRole = (name: string): name is Role => (ROLES as readonly string[]).includes(name);

/**
 * Refuses a mapping that names a role the gateway does not have, at start-up: a typo would
 * otherwise only show as people refused at sign-in.
 */
export function checkRoleMapping(mapping: OidcRoleMapping): void {
  const entries = [
    ...Object.entries(mapping.instance).map(([g, r]) => [`instance.${g}`, r]),
    ...Object.entries(mapping.projects).flatMap(([p, groups]) =>
      Object.entries(groups).map(([g, r]) => [`projects.${p}.${g}`, r]),
    ),
  ];
  for (const [where, role] of entries)
    if (!isRole(role))
      throw new Error(`HOOKRAIL_OIDC_ROLE_MAPPING: ${where} is "${role}", not one of ${ROLES.join(', ')}`);
}

/**
 * The roles a person's groups give: the strongest each group maps to, on the instance and per
 * project. Null when no group is mapped (such a person is refused at sign-in).
 */
export function rolesOfGroups(groups: readonly string[], mapping: OidcRoleMapping): PersonRoles | null {
  const roles: PersonRoles = { instance: null, projects: {} };
  let mapped = false;
  for (const group of groups) {
    const instance = mapping.instance[group];
    if (instance && isRole(instance)) {
      roles.instance = stronger(roles.instance, instance);
      mapped = true;
    }
    for (const [projectId, groupRoles] of Object.entries(mapping.projects)) {
      const role = groupRoles[group];
      if (!role || !isRole(role)) continue;
      roles.projects[projectId] = stronger(roles.projects[projectId], role);
      mapped = true;
    }
  }
  return mapped ? roles : null;
}

/** The role a person holds in a project (or, with none, on the instance); null: no access. */
export function roleIn(roles: PersonRoles, projectId: string | undefined): Role | null {
  const project = projectId === undefined ? undefined : roles.projects[projectId];
  if (!project) return roles.instance;
  return roles.instance ? stronger(roles.instance, project) : project;
}

/**
 * A person's roles from their groups and those an owner assigned them, combined: the stronger of
 * the two on the instance and in each project (docs/access.md, "Roles assigned in the console").
 */
export function combineRoles(groups: PersonRoles, assigned: PersonRoles): PersonRoles {
  const projects = { ...groups.projects };
  for (const [projectId, role] of Object.entries(assigned.projects))
    projects[projectId] = stronger(projects[projectId], role);
  const instance = assigned.instance ? stronger(groups.instance, assigned.instance) : groups.instance;
  return { instance, projects };
}

/** Whether the roles open anything at all (a person with none is refused at sign-in). */
export const holdsAnyRole = (roles: PersonRoles): boolean =>
  roles.instance !== null || Object.keys(roles.projects).length > 0;

/** The role the console shows: the instance role, else a person's one project role, else viewer. */
export function consoleRole(roles: PersonRoles): { role: Role; projectId?: string } {
  if (roles.instance) return { role: roles.instance };
  const projects = Object.entries(roles.projects);
  return projects.length === 1 ? { role: projects[0][1], projectId: projects[0][0] } : { role: 'viewer' };
}
