import { nullableTimestamp, toTimestamp } from '@hookrail/domain';
import { DEFAULT_EVENT_VALIDATION, type ApiKeyDoc, type ProjectDoc } from '@hookrail/store';
import type { ApiKeyResponse, Role } from '@hookrail/api-contract';
import { roleOf, seesPayloads } from '../auth/roles';
import { scopedOut } from '../common/scoped.presenter';

export function presentProject(doc: ProjectDoc) {
  return {
    uid: doc._id,
    name: doc.name,
    type: doc.type,
    // a project stored before event validation existed shows the default it runs with
    config: {
      ...doc.config,
      signature: {
        ...doc.config.signature,
        advanced_signatures_default: doc.config.signature?.advanced_signatures_default ?? false,
      },
      event_validation: doc.config.event_validation ?? DEFAULT_EVENT_VALIDATION,
      portal_branding: doc.config.portal_branding ?? {},
    },
    created_at: toTimestamp(doc.created_at),
    updated_at: toTimestamp(doc.updated_at),
    deleted_at: nullableTimestamp(doc.deleted_at),
  };
}

/** Never shows the hash; the key itself is only shown once, by the issuing route. */
export function presentApiKey(doc: ApiKeyDoc): ApiKeyResponse {
  const role = roleOf(doc.access_role);
  return {
    ...scopedOut(doc),
    name: doc.name,
    role: { type: convoyRoleType(role), project: doc.project_id, name: role },
    view_payloads: seesPayloads(role, doc.view_payloads),
    expires_at: nullableTimestamp(doc.expires_at),
    last_used_at: nullableTimestamp(doc.last_used_at),
  };
}

/** Convoy knows admins and viewers: a key that may change anything is its `project_admin`. */
const convoyRoleType = (role: Role) => (role === 'viewer' ? 'project_viewer' : 'project_admin');
