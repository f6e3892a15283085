import {
  checkRoleMapping,
  combineRoles,
  consoleRole,
  holdsAnyRole,
  roleIn,
  rolesOfGroups,
} from './group-roles';

const mapping = {
  instance: { 'hookrail-owners': 'owner', 'hookrail-viewers': 'viewer' },
  projects: { P1: { support: 'operator', 'hookrail-viewers': 'admin' } },
};

describe('roles from groups', () => {
  it('gives the strongest role any group maps to, on the instance and per project', () => {
    expect(rolesOfGroups(['hookrail-viewers', 'hookrail-owners'], mapping)).toEqual({
      instance: 'owner',
      projects: { P1: 'admin' },
    });
    expect(rolesOfGroups(['support'], mapping)).toEqual({ instance: null, projects: { P1: 'operator' } });
  });

  it('maps no role from unknown groups: null, which sign-in refuses', () => {
    expect(rolesOfGroups(['marketing'], mapping)).toBeNull();
    expect(rolesOfGroups([], mapping)).toBeNull();
  });

  it('takes the stronger of the instance role and the project role in a project', () => {
    const viewer = rolesOfGroups(['hookrail-viewers'], mapping)!;
    expect(roleIn(viewer, 'P1')).toBe('admin');
    expect(roleIn(viewer, 'P2')).toBe('viewer');
    expect(roleIn(viewer, undefined)).toBe('viewer');
    const support = rolesOfGroups(['support'], mapping)!;
    expect(roleIn(support, 'P1')).toBe('operator');
    expect(roleIn(support, 'P2')).toBeNull();
  });

  it('refuses a mapping naming a role that does not exist, saying where', () => {
    expect(() => checkRoleMapping(mapping)).not.toThrow();
    expect(() => checkRoleMapping({ instance: {}, projects: { P1: { ops: 'superuser' } } })).toThrow(
      'HOOKRAIL_OIDC_ROLE_MAPPING: projects.P1.ops is "superuser", not one of owner, admin, operator, viewer',
    );
  });

  it('combines the groups’ roles with those assigned by an owner: the stronger of the two, each place', () => {
    const groups = { instance: 'viewer' as const, projects: { P1: 'admin' as const } };
    const assigned = { instance: null, projects: { P1: 'operator' as const, P2: 'owner' as const } };
    expect(combineRoles(groups, assigned)).toEqual({
      instance: 'viewer',
      projects: { P1: 'admin', P2: 'owner' },
    });
    expect(combineRoles({ instance: null, projects: {} }, { instance: 'admin', projects: {} })).toEqual({
      instance: 'admin',
      projects: {},
    });
    expect(holdsAnyRole({ instance: null, projects: {} })).toBe(false);
    expect(holdsAnyRole(assigned)).toBe(true);
  });

  it('shows the instance role in the console, else a one-project person’s role there, else viewer', () => {
    expect(consoleRole({ instance: 'admin', projects: { P1: 'owner' } })).toEqual({ role: 'admin' });
    expect(consoleRole({ instance: null, projects: { P1: 'operator' } })).toEqual({
      role: 'operator',
      projectId: 'P1',
    });
    expect(consoleRole({ instance: null, projects: { P1: 'operator', P2: 'owner' } })).toEqual({
      role: 'viewer',
    });
  });
});
