import type { Connection } from 'mongoose';
import { Schema } from 'mongoose';
import type { ProjectId } from '@hookrail/domain';

/**
 * An event type an endpoint has been sent: the portal's event-type catalog. One small document per
 * (endpoint, type), upserted in batches by the dispatchers with the delivery counters, so the
 * catalog is read without a distinct over events or deliveries.
 */
export interface EventTypeSeenDoc {
  /** `<project>|<endpoint>|<event type>` */
  _id: string;
  project_id: ProjectId;
  endpoint_id: string;
  event_type: string;
  first_seen_at: Date;
  last_seen_at: Date;
}

const eventTypeSeenSchema = new Schema<EventTypeSeenDoc>(
  {
    _id: { type: String, required: true },
    project_id: { type: String, required: true },
    endpoint_id: { type: String, required: true },
    event_type: { type: String, required: true },
    first_seen_at: { type: Date, required: true },
    last_seen_at: { type: Date, required: true },
  },
  { collection: 'event_types_seen', versionKey: false, _id: false },
);
// eventTypes.listForEndpoints: the types of some endpoints of a project.
eventTypeSeenSchema.index({ project_id: 1, endpoint_id: 1, event_type: 1 });

export const eventTypeSeenModel = (conn: Connection) =>
  conn.models.EventTypeSeen ?? conn.model<EventTypeSeenDoc>('EventTypeSeen', eventTypeSeenSchema);
