import type { Connection } from 'mongoose';
import { Schema } from 'mongoose';
import type { ProjectId } from '@hookrail/domain';

/** The endpoint id of a project's all-endpoints row (written beside each endpoint's row). */
export const ALL_ENDPOINTS = '*';

/**
 * Per-minute delivery counters of one endpoint (or of the whole project, `endpoint_id: "*"`):
 * outcomes by status and a fixed latency histogram (bucket index → attempts). Written with `$inc`
 * upserts by the dispatchers, read by the console's charts; never scanned from deliveries.
 */
export interface DeliveryStatsDoc {
  /** `<project>|<endpoint>|<minute epoch ms>`: one document per minute and endpoint. */
  _id: string;
  project_id: ProjectId;
  endpoint_id: string;
  minute: Date;
  /** Outcomes by delivery status (Success, Retry, Failure, Discarded). */
  outcomes: Record<string, number>;
  /** Attempts per latency bucket, keyed by the bucket's index (`"0"` … ). */
  latency: Record<string, number>;
}

const deliveryStatsSchema = new Schema<DeliveryStatsDoc>(
  {
    _id: { type: String, required: true },
    project_id: { type: String, required: true },
    endpoint_id: { type: String, required: true },
    minute: { type: Date, required: true },
    outcomes: { type: Schema.Types.Mixed, default: {} },
    latency: { type: Schema.Types.Mixed, default: {} },
  },
  { collection: 'delivery_stats', versionKey: false, _id: false, minimize: false },
);
// deliveryStats.series: one endpoint's (or the project's "*") minutes in a time range.
deliveryStatsSchema.index({ project_id: 1, endpoint_id: 1, minute: 1 });
// deliveryStats.deleteBefore: the retention sweep's old minutes of a project.
deliveryStatsSchema.index({ project_id: 1, minute: 1 });

export const deliveryStatsModel = (conn: Connection) =>
  conn.models.DeliveryStats ?? conn.model<DeliveryStatsDoc>('DeliveryStats', deliveryStatsSchema);
