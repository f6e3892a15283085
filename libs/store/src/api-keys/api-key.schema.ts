import type { Role } from '@hookrail/api-contract';
import type { Connection } from 'mongoose';
import { scopedSchema } from '../base/schema';
import type { ScopedDoc } from '../base/project-scoped.repository';

/** A project API key. Only a SHA-256 hash of the secret part is stored. */
export interface ApiKeyDoc extends ScopedDoc {
  name: string;
  secret_hash: string;
  /** Convoy's role kind, answered as `role.type`; what the key may do is `access_role`. */
  role: 'admin' | 'member';
  /** What the key may do (docs/access.md); absent on keys issued before roles: an owner's. */
  access_role?: Role;
  /** A viewer key may also see payloads (the other roles always do). */
  view_payloads?: boolean;
  expires_at: Date | null;
  last_used_at: Date | null;
}

const apiKeySchema = scopedSchema<ApiKeyDoc>(
  {
    name: { type: String, required: true },
    secret_hash: { type: String, required: true },
    role: { type: String, required: true, default: 'admin' },
    access_role: { type: String },
    view_payloads: { type: Boolean },
    expires_at: { type: Date, default: null },
    last_used_at: { type: Date, default: null },
  },
  'api_keys',
);
// apiKeys.page, findById (live keys by equality; findByKeyId reads by _id)
apiKeySchema.index({ project_id: 1, deleted_at: 1, _id: 1 });

export const apiKeyModel = (conn: Connection) =>
  conn.models.ApiKey ?? conn.model<ApiKeyDoc>('ApiKey', apiKeySchema);
