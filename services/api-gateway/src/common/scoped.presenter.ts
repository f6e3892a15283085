import type { HookrailConfig } from '@hookrail/config';
import { nullableTimestamp, toTimestamp, type SecretBox } from '@hookrail/domain';
import type { ScopedDoc } from '@hookrail/store';

/** What presenters need to open sealed credentials and build URLs. */
export interface PresentContext {
  box: SecretBox;
  config: Readonly<HookrailConfig>;
}

/** The fields every project-scoped resource shares, in wire form (RFC 3339, `deleted_at` null). */
export function scopedOut(doc: ScopedDoc) {
  return {
    uid: doc._id,
    project_id: doc.project_id,
    created_at: toTimestamp(doc.created_at),
    updated_at: toTimestamp(doc.updated_at),
    deleted_at: nullableTimestamp(doc.deleted_at),
  };
}

/** Parses JSON text stored for user JSON (payloads, headers, filters); a damaged value reads as the fallback. */
export function parseStored<T>(text: string | null | undefined, fallback: T): T {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}
