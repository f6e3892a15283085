import type { Role } from '@hookrail/api-contract';
import type { Connection } from 'mongoose';
import { scopedSchema } from '../base/schema';
import type { ScopedDoc } from '../base/project-scoped.repository';

/**
 * A role an owner assigned to a person in one project (docs/access.md). One per person and
 * project; revoking deletes it (the audit log keeps the history).
 */
export interface MemberDoc extends ScopedDoc {
  /** The provider's `sub` (people._id). */
  user_id: string;
  role: Role;
}

const memberSchema = scopedSchema<MemberDoc>(
  {
    user_id: { type: String, required: true },
    role: { type: String, required: true },
  },
  'project_members',
);
// members.assign / roleOf / revoke: one person in one project
memberSchema.index({ project_id: 1, user_id: 1 }, { unique: true });
// members.ofPerson: a person's projects, at every call of theirs
memberSchema.index({ user_id: 1 });

export const memberModel = (conn: Connection) =>
  conn.models.Member ?? conn.model<MemberDoc>('Member', memberSchema);
