import { AbilityBuilder, createMongoAbility, type MongoAbility } from '@casl/ability';
import { PERMISSIONS, ROLES, type Operation, type Permission, type Role } from '@hookrail/api-contract';
import { DomainError } from '@hookrail/domain';

/**
 * Who holds what: a key's or session's role, or a portal link (whose rights come from the link, not
 * a role). `none` is everyone's; `payloads` is whether the bodies of events and deliveries are shown.
 */
export type Grant = Role | 'portal_link' | 'portal_link_manager';

const EVERY: readonly Permission[] = PERMISSIONS;

/** The one table: every grant's permissions. A change of access is a change of this table. */
const TABLE: Record<Grant, { permissions: readonly Permission[]; payloads: boolean }> = {
  owner: { permissions: EVERY, payloads: true },
  admin: { permissions: ['none', 'read', 'retry', 'publish', 'operate', 'configure'], payloads: true },
  operator: { permissions: ['none', 'read', 'retry', 'operate'], payloads: true },
  viewer: { permissions: ['none', 'read'], payloads: false },
  portal_link: { permissions: ['none', 'read', 'retry'], payloads: true },
  portal_link_manager: { permissions: EVERY, payloads: true },
};

type Ability = MongoAbility<[Permission, 'Operation'] | ['view', 'Payload']>;

/** Built once per grant: CASL compiles its rules on build, a check is then a lookup (~0.1 µs). */
const ABILITIES = new Map<Grant, Ability>(
  (Object.keys(TABLE) as Grant[]).map((grant) => {
    const { can, build } = new AbilityBuilder<Ability>(createMongoAbility);
    for (const permission of TABLE[grant].permissions) can(permission, 'Operation');
    if (TABLE[grant].payloads) can('view', 'Payload');
    return [grant, build()];
  }),
);

const abilityOf = (grant: Grant): Ability => ABILITIES.get(grant)!;

export function holds(grant: Grant, permission: Permission): boolean {
  return abilityOf(grant).can(permission, 'Operation');
}

/** A viewer sees payloads only when its key was issued with `view_payloads`. */
export function seesPayloads(grant: Grant, viewPayloads = false): boolean {
  return viewPayloads || abilityOf(grant).can('view', 'Payload');
}

/** The permissions a grant holds, in the contract's order (what the console reads from its session). */
export function permissionsOf(grant: Grant): Permission[] {
  return PERMISSIONS.filter((p) => holds(grant, p));
}

/**
 * 403 unless `grant` holds the operation's permission; the message names who was refused (`this
 * key's role viewer`) and the permission it lacks, so a caller knows what to ask for.
 */
export function authorizeGrant(grant: Grant, op: Operation, who: string): void {
  if (!holds(grant, op.permission))
    throw new DomainError('forbidden', `${who} lacks the permission ${op.permission}`);
}

/** A stored role; a key stored before roles (no role) is an owner, as it had every permission. */
export function roleOf(stored: string | undefined | null): Role {
  return (ROLES as readonly string[]).includes(stored ?? '') ? (stored as Role) : 'owner';
}
