import type { Connection } from 'mongoose';
import { scopedSchema } from '../base/schema';
import type { ScopedDoc } from '../base/project-scoped.repository';

export interface PortalLinkDoc extends ScopedDoc {
  name: string;
  owner_id: string | null;
  endpoints: string[];
  can_manage_endpoint: boolean;
  auth_type: 'static_token' | 'refresh_token';
  /** The link token, encrypted (it is shown on read: it is the link); `token_hash` (SHA-256) finds it. */
  token: string;
  token_hash: string;
  /** Short-lived key for refresh_token links: hash and expiry only. */
  auth_key_hash: string | null;
  auth_key_expires_at: Date | null;
}

const portalLinkSchema = scopedSchema<PortalLinkDoc>(
  {
    name: { type: String, required: true },
    owner_id: { type: String, default: null },
    endpoints: { type: [String], default: [] },
    can_manage_endpoint: { type: Boolean, default: false },
    auth_type: { type: String, default: 'static_token' },
    token: { type: String, required: true },
    token_hash: { type: String, required: true },
    auth_key_hash: { type: String, default: null },
    auth_key_expires_at: { type: Date, default: null },
  },
  'portal_links',
);
// portalLinks.findByCredentialHash (portal API authentication), by token hash
portalLinkSchema.index({ token_hash: 1 }, { unique: true });
// portalLinks.findByCredentialHash, by the current auth key's hash
portalLinkSchema.index({ auth_key_hash: 1 });
// portalLinks.page, findById (live links first by equality; the owner_id filter is applied on this
// scan: a project has few links)
portalLinkSchema.index({ project_id: 1, deleted_at: 1, _id: -1 });

export const portalLinkModel = (conn: Connection) =>
  conn.models.PortalLink ?? conn.model<PortalLinkDoc>('PortalLink', portalLinkSchema);
