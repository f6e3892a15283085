import { nullableTimestamp } from '@hookrail/domain';
import type { EventCatalogDoc } from '@hookrail/store';
import { parseStored, scopedOut } from '../common/scoped.presenter';

/** Convoy's event type (uid, name, description, category, json_schema, deprecated_at) and Hookrail's fields. */
export function presentEventType(doc: EventCatalogDoc) {
  return {
    ...scopedOut(doc),
    name: doc.name,
    description: doc.description ?? '',
    category: doc.category ?? '',
    json_schema: parseStored<Record<string, unknown> | null>(doc.json_schema_json, null),
    example: parseStored<unknown>(doc.example_json, null),
    deprecated: Boolean(doc.deprecated_at),
    deprecated_at: nullableTimestamp(doc.deprecated_at),
  };
}
