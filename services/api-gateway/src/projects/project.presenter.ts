import { nullableTimestamp, toTimestamp } from '@hookrail/domain';
import { DEFAULT_EVENT_VALIDATION, type ApiKeyDoc, type ProjectDoc } from '@hookrail/store';
import type { ApiKeyResponse } from '@hookrail/api-contract';
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
  return {
    ...scopedOut(doc),
    name: doc.name,
    role: { type: doc.role === 'admin' ? 'project_admin' : 'project_viewer', project: doc.project_id },
    expires_at: nullableTimestamp(doc.expires_at),
    last_used_at: nullableTimestamp(doc.last_used_at),
  };
}
