import type { Role } from '@hookrail/api-contract';
import type { Connection } from 'mongoose';
import { Schema } from 'mongoose';

/** The roles a person's groups gave at their last sign-in (HOOKRAIL_OIDC_ROLE_MAPPING). */
export interface GroupRoles {
  instance: Role | null;
  projects: Record<string, Role>;
}

/**
 * A person who signed in through single sign-on: instance-level (people are not a project's), by
 * the provider's `sub`. Holds the role an owner assigned them on the whole instance (their project
 * roles are `project_members`), and when the provider last ended their sessions (back-channel
 * logout): a session signed in before that is refused.
 */
export interface PersonDoc {
  _id: string;
  email: string;
  name: string;
  group_roles: GroupRoles;
  instance_role: Role | null;
  sessions_ended_at: Date | null;
  last_sign_in_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const personSchema = new Schema<PersonDoc>(
  {
    _id: { type: String, required: true },
    email: { type: String, default: '' },
    name: { type: String, default: '' },
    group_roles: { type: Schema.Types.Mixed, default: () => ({ instance: null, projects: {} }) },
    instance_role: { type: String, default: null },
    sessions_ended_at: { type: Date, default: null },
    last_sign_in_at: { type: Date, default: null },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { collection: 'people', versionKey: false, _id: false, minimize: false },
);
// Read by _id (the provider's sub); the list of everyone is small and read whole, by _id.

export const personModel = (conn: Connection) =>
  conn.models.Person ?? conn.model<PersonDoc>('Person', personSchema);
