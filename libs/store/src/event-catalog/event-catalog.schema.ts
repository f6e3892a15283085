import type { Connection } from 'mongoose';
import { scopedSchema } from '../base/schema';
import type { ScopedDoc } from '../base/project-scoped.repository';

/**
 * An event type of a project's catalog: a concrete type name (`invoice.paid`) a producer declares,
 * with what it means and what its `data` looks like. Not the portal's "types seen" list
 * (`event_types_seen`, filled by the dispatchers from what endpoints were actually sent).
 */
export interface EventCatalogDoc extends ScopedDoc {
  name: string;
  description: string;
  category: string;
  /**
   * JSON Schema (draft 2020-12) of the event's `data`, as JSON text: schemas carry `$`-prefixed
   * keys (`$ref`, `$defs`, `$schema`) that cannot be stored as field names. Null: no schema.
   */
  json_schema_json: string | null;
  /** An example `data` payload, as JSON text (any JSON value); null: none. */
  example_json: string | null;
  /** When the type was deprecated; null while it is current. */
  deprecated_at: Date | null;
}

const eventCatalogSchema = scopedSchema<EventCatalogDoc>(
  {
    name: { type: String, required: true },
    description: { type: String, default: '' },
    category: { type: String, default: '' },
    json_schema_json: { type: String, default: null },
    example_json: { type: String, default: null },
    deprecated_at: { type: Date, default: null },
  },
  'event_catalog',
);
// Live documents only (deleted_at: null) is an equality key of each index.
// eventCatalog.findByName, listAll (the catalog, at most 1,000, in name order); unique: one live
// type per name (a deleted one keeps its deletion time as the key, so a name can be reused)
eventCatalogSchema.index({ project_id: 1, deleted_at: 1, name: 1 }, { unique: true });
// eventCatalog.findById, findByIds
eventCatalogSchema.index({ project_id: 1, deleted_at: 1, _id: -1 });

export const eventCatalogModel = (conn: Connection) =>
  conn.models.EventCatalog ?? conn.model<EventCatalogDoc>('EventCatalog', eventCatalogSchema);
