import { managementOperations, PERMISSIONS, type Operation, type Permission } from '@hookrail/api-contract';
import { authorizeGrant, holds, permissionsOf, roleOf, seesPayloads, type Grant } from './roles';

const op = (permission: Permission) =>
  ({ operationId: `an ${permission} call`, permission }) as unknown as Operation;

describe('the role table', () => {
  it.each<[Grant, Permission[]]>([
    ['owner', ['none', 'read', 'retry', 'publish', 'operate', 'configure', 'own']],
    ['admin', ['none', 'read', 'retry', 'publish', 'operate', 'configure']],
    ['operator', ['none', 'read', 'retry', 'operate']],
    ['viewer', ['none', 'read']],
    ['portal_link', ['none', 'read', 'retry']],
    ['portal_link_manager', [...PERMISSIONS]],
  ])('%s holds exactly %j', (grant, expected) => {
    expect(permissionsOf(grant)).toEqual(expected);
    for (const p of PERMISSIONS) expect(holds(grant, p)).toBe(expected.includes(p));
  });

  it('refuses with a 403 naming the role and the permission it lacks', () => {
    expect(() => authorizeGrant('viewer', op('configure'), "this key's role viewer")).toThrow(
      expect.objectContaining({
        code: 'forbidden',
        message: "this key's role viewer lacks the permission configure",
      }),
    );
    expect(() => authorizeGrant('operator', op('retry'), 'x')).not.toThrow();
  });

  it('shows payloads to every role but a viewer, and to a viewer granted view_payloads', () => {
    expect(seesPayloads('owner')).toBe(true);
    expect(seesPayloads('operator')).toBe(true);
    expect(seesPayloads('viewer')).toBe(false);
    expect(seesPayloads('viewer', true)).toBe(true);
  });

  it('reads a key stored before roles as an owner, and a stored role as itself', () => {
    expect(roleOf(undefined)).toBe('owner');
    expect(roleOf('viewer')).toBe('viewer');
  });

  it('lets a viewer read every read of the management API and nothing that changes state', () => {
    for (const o of Object.values(managementOperations) as Operation[])
      expect(holds('viewer', o.permission)).toBe(o.permission === 'read' || o.permission === 'none');
  });
});
