import type { Connection } from 'mongoose';
import { Mixed, scopedSchema } from '../base/schema';
import type { ScopedDoc } from '../base/project-scoped.repository';

export interface EndpointSecret {
  uid: string;
  /** Encrypted at rest (libs/domain secret-box); decrypted only to sign. */
  value: string;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
  expires_at: Date | null;
}

export type EndpointStatus = 'active' | 'paused' | 'inactive';

/** Where deliveries go: an HTTP URL (Convoy's only kind) or a broker (docs/destinations.md). */
export type EndpointType = 'http' | 'kafka' | 'amqp' | 'sqs' | 'google_pubsub' | 'cli';

/**
 * The circuit breaker as its dispatcher last saw it (the breaker itself lives in the dispatcher
 * owning the endpoint; this copy is written on every change so the API can show it).
 * `half_open`: a probe delivery is on its way.
 */
export interface EndpointBreakerState {
  state: 'closed' | 'open' | 'half_open';
  reason: string | null;
  since: Date;
}

export interface EndpointDoc extends ScopedDoc {
  owner_id: string | null;
  name: string;
  description: string;
  /** Absent on endpoints written before destinations: http. */
  type?: EndpointType;
  /** For http: the target; for a broker destination: empty. */
  url: string;
  /** A broker destination's settings as the API took them, credentials sealed; null for http. */
  destination?: Record<string, unknown> | null;
  content_type: string;
  status: EndpointStatus;
  /** Why the endpoint is paused or inactive (who paused it, what disabled it); null when active. */
  status_reason: string | null;
  circuit_breaker: EndpointBreakerState | null;
  advanced_signatures: boolean;
  http_timeout: number;
  rate_limit: number;
  rate_limit_duration: number;
  events: number;
  failure_rate: number;
  support_email: string | null;
  slack_webhook_url: string | null;
  mtls_client_cert: { client_cert: string; client_key: string } | null;
  secrets: EndpointSecret[];
  authentication: Record<string, unknown> | null;
}

const endpointSchema = scopedSchema<EndpointDoc>(
  {
    owner_id: { type: String, default: null },
    name: { type: String, required: true },
    description: { type: String, default: '' },
    type: { type: String, default: 'http' },
    // '' for a broker destination (mongoose's `required` refuses empty strings)
    url: { type: String, default: '' },
    destination: { type: Mixed, default: null },
    content_type: { type: String, default: 'application/json' },
    status: { type: String, default: 'active' },
    status_reason: { type: String, default: null },
    circuit_breaker: { type: Mixed, default: null },
    advanced_signatures: { type: Boolean, default: false },
    http_timeout: { type: Number, default: 10 },
    rate_limit: { type: Number, default: 0 },
    rate_limit_duration: { type: Number, default: 0 },
    events: { type: Number, default: 0 },
    failure_rate: { type: Number, default: 0 },
    support_email: { type: String, default: null },
    slack_webhook_url: { type: String, default: null },
    mtls_client_cert: { type: Mixed, default: null },
    secrets: { type: [Mixed], default: [] },
    authentication: { type: Mixed, default: null },
  },
  'endpoints',
);
// Live documents only (deleted_at: null) is an equality key of each index, before the _id sort.
// endpoints.page, findById/findByIds (the status filter is applied on this scan: a project has few endpoints)
endpointSchema.index({ project_id: 1, deleted_at: 1, _id: -1 });
// endpoints.listByOwner (fanout, portal links) and endpoints.page by owner_id
endpointSchema.index({ project_id: 1, owner_id: 1, deleted_at: 1, _id: -1 });

export const endpointModel = (conn: Connection) =>
  conn.models.Endpoint ?? conn.model<EndpointDoc>('Endpoint', endpointSchema);
