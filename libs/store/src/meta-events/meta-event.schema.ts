import type { Connection } from 'mongoose';
import { Mixed, scopedSchema } from '../base/schema';
import type { ScopedDoc } from '../base/project-scoped.repository';

/** As deliveries; `Discarded`: recorded but not sent (meta events off, or its type not selected). */
export type MetaEventStatus = 'Scheduled' | 'Processing' | 'Success' | 'Retry' | 'Failure' | 'Discarded';

export interface MetaEventDoc extends ScopedDoc {
  event_type: string;
  status: MetaEventStatus;
  /** Why it is Discarded: not sent at all (meta events off, no URL, its type not selected). */
  status_reason?: string | null;
  /** Last attempt; header objects as JSON text (user header names are not safe keys). */
  attempt: {
    request_http_header_json: string;
    response_http_header_json: string;
    response_data: string;
  } | null;
  metadata: {
    raw: string;
    strategy: string;
    interval_seconds: number;
    max_retry_seconds: number;
    num_trials: number;
    retry_limit: number;
    next_send_time: Date | null;
  };
}

const metaEventSchema = scopedSchema<MetaEventDoc>(
  {
    event_type: { type: String, required: true },
    status: { type: String, default: 'Scheduled' },
    status_reason: { type: String, default: null },
    attempt: { type: Mixed, default: null },
    metadata: { type: Mixed, required: true },
  },
  'meta_events',
);
// metaEvents.page (the event_type and status filters are applied on this scan)
metaEventSchema.index({ project_id: 1, _id: -1 });

export const metaEventModel = (conn: Connection) =>
  conn.models.MetaEvent ?? conn.model<MetaEventDoc>('MetaEvent', metaEventSchema);
