import type { Connection } from 'mongoose';
import { scopedSchema } from '../base/schema';
import type { ScopedDoc } from '../base/project-scoped.repository';

/** A project API key. Only a SHA-256 hash of the secret part is stored. */
export interface ApiKeyDoc extends ScopedDoc {
  name: string;
  secret_hash: string;
  role: 'admin' | 'member';
  expires_at: Date | null;
  last_used_at: Date | null;
}

const apiKeySchema = scopedSchema<ApiKeyDoc>(
  {
    name: { type: String, required: true },
    secret_hash: { type: String, required: true },
    role: { type: String, required: true, default: 'admin' },
    expires_at: { type: Date, default: null },
    last_used_at: { type: Date, default: null },
  },
  'api_keys',
);
// apiKeys.page, findById (live keys by equality; findByKeyId reads by _id)
apiKeySchema.index({ project_id: 1, deleted_at: 1, _id: 1 });

export const apiKeyModel = (conn: Connection) =>
  conn.models.ApiKey ?? conn.model<ApiKeyDoc>('ApiKey', apiKeySchema);
