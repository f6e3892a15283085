import { Schema, type Connection } from 'mongoose';
import { Mixed } from '../base/schema';
import { type ProjectId } from '@hookrail/domain';
import { DEFAULT_SIGNATURE_CONFIG, type PortalBranding, type SignatureConfig } from '@hookrail/api-contract';

/**
 * Checking events against the event type catalog at intake (events API, HTTP and broker sources).
 * `mode`: whether `data` is checked against its type's JSON Schema (warn: accepted, violations
 * recorded on the event; enforce: refused). `unknown_types`: what happens to a type the catalog
 * does not have (an HTTP source's untyped `*` included). Off and allow: nothing is checked.
 */
export interface EventValidationConfig {
  mode: 'off' | 'warn' | 'enforce';
  unknown_types: 'allow' | 'warn' | 'refuse';
}

/** Nothing checked: the behaviour of a project stored before event validation existed. */
export const DEFAULT_EVENT_VALIDATION: EventValidationConfig = { mode: 'off', unknown_types: 'allow' };

export interface ProjectConfig {
  max_payload_bytes: number;
  retention_seconds: number;
  strategy: {
    type: 'linear' | 'exponential';
    duration: number;
    retry_count: number;
    max_retry_seconds?: number;
  };
  /**
   * `advanced_signatures_default`: an endpoint's `advanced_signatures` when its create leaves it
   * out (absent: false, the simple scheme).
   */
  signature: SignatureConfig & { advanced_signatures_default?: boolean };
  disable_endpoint: boolean;
  meta_event: { is_enabled: boolean; url?: string; secret?: string; event_type: string[] };
  ssl: { enforce_secure_endpoints: boolean };
  add_event_id_trace_headers: boolean;
  /** Absent in projects stored before it existed: read as DEFAULT_EVENT_VALIDATION. */
  event_validation?: EventValidationConfig;
  circuit_breaker?: {
    min_requests?: number;
    failure_rate?: number;
    consecutive_failures?: number;
    probe_interval_seconds?: number;
    disable_after_seconds?: number;
  };
  /** How the customer portal presents itself; absent: its own look. */
  portal_branding?: PortalBranding;
}

export interface ProjectDoc {
  _id: ProjectId;
  name: string;
  type: 'incoming' | 'outgoing';
  config: ProjectConfig;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

export const DEFAULT_PROJECT_CONFIG: ProjectConfig = {
  max_payload_bytes: 1024 * 1024,
  retention_seconds: 30 * 86400,
  strategy: { type: 'linear', duration: 100, retry_count: 10 },
  signature: DEFAULT_SIGNATURE_CONFIG,
  disable_endpoint: false,
  meta_event: { is_enabled: false, event_type: [] },
  ssl: { enforce_secure_endpoints: false },
  add_event_id_trace_headers: false,
  event_validation: DEFAULT_EVENT_VALIDATION,
};

const projectSchema = new Schema<ProjectDoc>(
  {
    _id: { type: String, required: true },
    name: { type: String, required: true },
    type: { type: String, required: true, enum: ['incoming', 'outgoing'] },
    config: { type: Mixed, required: true },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
    deleted_at: { type: Date, default: null },
  },
  { collection: 'projects', versionKey: false, minimize: false, _id: false },
);
// projects.page: live projects by _id (findById reads by _id)
projectSchema.index({ deleted_at: 1, _id: 1 });

export const projectModel = (conn: Connection) =>
  conn.models.Project ?? conn.model<ProjectDoc>('Project', projectSchema);
