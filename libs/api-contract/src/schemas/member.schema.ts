import type { Static } from '@sinclair/typebox';
import { ROLES } from '../roles';
import { enumOf, nullable, nullableTimestamp, object, resource, str } from './common.schema';

/**
 * A person who signed in through single sign-on, with their role in one project (or on the
 * instance): `assigned_role` is what an owner gave them in the console (null: none), `group_role`
 * what their groups give through HOOKRAIL_OIDC_ROLE_MAPPING at their last sign-in, `role` the one
 * that counts: the stronger of the two (docs/access.md, "Roles assigned in the console").
 */
export const memberResponse = resource({
  user_id: str({ description: "the provider's `sub`" }),
  email: str(),
  name: str(),
  assigned_role: nullable(enumOf(ROLES)),
  group_role: nullable(enumOf(ROLES)),
  role: nullable(enumOf(ROLES)),
  last_sign_in_at: nullableTimestamp,
});
export type MemberResponse = Static<typeof memberResponse>;

/** Grants or changes a person's assigned role. */
export const memberRoleBody = object({ role: enumOf(ROLES) }, ['role']);
