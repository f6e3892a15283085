import type { Connection } from 'mongoose';
import { Mixed, scopedSchema } from '../base/schema';
import type { ScopedDoc } from '../base/project-scoped.repository';

/**
 * A source, stored in the field names of the API. Credentials inside `verifier` and
 * `pub_sub` are stored encrypted (libs/domain secret-box) by the code that writes them.
 */
export interface SourceDoc extends ScopedDoc {
  name: string;
  type: 'http' | 'rest_api' | 'pub_sub' | 'db_change_stream';
  provider: string | null;
  provider_config: Record<string, unknown> | null;
  mask_id: string;
  is_disabled: boolean;
  forward_headers: string[];
  idempotency_keys: string[];
  body_function: string | null;
  header_function: string | null;
  custom_response: { body: string; content_type: string } | null;
  pub_sub: Record<string, unknown> | null;
  /** `db_change_stream` sources: what to watch; the connection string is sealed like broker credentials. */
  db_change_stream?: Record<string, unknown> | null;
  verifier: Record<string, unknown> | null;
}

const sourceSchema = scopedSchema<SourceDoc>(
  {
    name: { type: String, required: true },
    type: { type: String, required: true },
    provider: { type: String, default: null },
    provider_config: { type: Mixed, default: null },
    mask_id: { type: String, required: true },
    is_disabled: { type: Boolean, default: false },
    forward_headers: { type: [String], default: [] },
    idempotency_keys: { type: [String], default: [] },
    body_function: { type: String, default: null },
    header_function: { type: String, default: null },
    custom_response: { type: Mixed, default: null },
    pub_sub: { type: Mixed, default: null },
    db_change_stream: { type: Mixed, default: null },
    verifier: { type: Mixed, default: null },
  },
  'sources',
);
// sources.findByMaskId: ingest looks a source up by its mask id on every request
sourceSchema.index({ mask_id: 1 }, { unique: true });
// Live documents only (deleted_at: null) is an equality key of each project index, before the _id sort.
// sources.findByName (names are unique within a project) and sources.page by name
sourceSchema.index({ project_id: 1, name: 1, deleted_at: 1 });
// sources.page, findById/findByIds (the type filter is applied on this scan)
sourceSchema.index({ project_id: 1, deleted_at: 1, _id: -1 });

// sources.listBrokerSources: source-consumer replicas list every broker and change stream source on assignment
sourceSchema.index({ type: 1, deleted_at: 1 });

export const sourceModel = (conn: Connection) =>
  conn.models.Source ?? conn.model<SourceDoc>('Source', sourceSchema);
