import type { Connection } from 'mongoose';
import { Mixed, scopedSchema } from '../base/schema';
import type { ScopedDoc } from '../base/project-scoped.repository';

export interface SubscriptionDoc extends ScopedDoc {
  name: string;
  type: 'api' | 'cli';
  source_id: string | null;
  endpoint_id: string;
  app_id: string | null;
  delivery_mode: 'at_least_once' | 'at_most_once';
  function: string | null;
  alert_config: { count: number; threshold: string } | null;
  rate_limit_config: { count: number; duration: number } | null;
  /**
   * Filters are MongoDB-style queries with `$` operators, which cannot be stored as keys, so the
   * body and header filters are stored as JSON text (already flattened to dot paths).
   */
  filter_config: { event_types: string[]; filter: { body_json: string; headers_json: string } };
  retry_config: {
    type: 'linear' | 'exponential';
    duration: number;
    retry_count: number;
    max_retry_seconds?: number;
  } | null;
  /** Ordered delivery (docs/ordered-delivery.md); absent or null: no ordering, as before. */
  ordering?: OrderingConfig | null;
}

/** Which ends of a key's head unblock the key besides success: an exhausted retry budget, a discard. */
export type OrderingUnblock = 'failure' | 'discarded';

export interface OrderingConfig {
  mode: 'endpoint' | 'key';
  /** mode `key`: where the key is read: a path of the event's data, or a request header (lower case). */
  key: { body_path: string } | { header: string } | null;
  unblock_on: OrderingUnblock[];
}

const subscriptionSchema = scopedSchema<SubscriptionDoc>(
  {
    name: { type: String, required: true },
    type: { type: String, default: 'api' },
    source_id: { type: String, default: null },
    endpoint_id: { type: String, required: true },
    app_id: { type: String, default: null },
    delivery_mode: { type: String, default: 'at_least_once' },
    function: { type: String, default: null },
    alert_config: { type: Mixed, default: null },
    rate_limit_config: { type: Mixed, default: null },
    filter_config: { type: Mixed, required: true },
    retry_config: { type: Mixed, default: null },
    ordering: { type: Mixed, default: null },
  },
  'subscriptions',
);
// Live documents only (deleted_at: null) is an equality key of each index, before the _id sort.
// subscriptions.page, listAll (the router loads a project's subscriptions), findById (name filter applied on it)
subscriptionSchema.index({ project_id: 1, deleted_at: 1, _id: -1 });
// subscriptions.page by source
subscriptionSchema.index({ project_id: 1, source_id: 1, deleted_at: 1, _id: -1 });
// subscriptions.page by endpoint, listByEndpoint (deleting an endpoint deletes its subscriptions)
subscriptionSchema.index({ project_id: 1, endpoint_id: 1, deleted_at: 1, _id: -1 });

export const subscriptionModel = (conn: Connection) =>
  conn.models.Subscription ?? conn.model<SubscriptionDoc>('Subscription', subscriptionSchema);

/**
 * Whether some of a project's subscriptions order their deliveries: its events are then keyed by
 * project on the events topic, so they are routed in acceptance order (docs/ordered-delivery.md).
 */
export const someOrdered = (subscriptions: readonly Pick<SubscriptionDoc, 'ordering'>[]): boolean =>
  subscriptions.some((s) => s.ordering != null);
