import type { MetaEventType } from '@hookrail/api-contract';
import type { DeliveryMessage, MetaMessage, Publisher } from '@hookrail/bus';
import { toTimestamp } from '@hookrail/domain';
import type { ScheduleDoc } from '@hookrail/store';
import { withinStoredTrace } from '@hookrail/telemetry';

/**
 * Publishes due entries back to their topics: a delivery to `deliveries`, a meta event to `meta`.
 * Each goes out in the trace of the message that scheduled it, so a retry stays in its event's
 * trace; the publisher still batches the concurrent publishes into few produce requests.
 */
export function fireDue(publisher: Publisher): (due: ScheduleDoc[]) => Promise<void> {
  return async (due) => {
    await Promise.all(
      due.map((d) =>
        withinStoredTrace(d, () =>
          d.kind === 'meta'
            ? publisher.publish('meta', [metaMessage(d)])
            : publisher.publish('deliveries', [deliveryMessage(d)]),
        ),
      ),
    );
  };
}

function metaMessage(d: ScheduleDoc): MetaMessage {
  return {
    project_id: d.project_id,
    event_type: d.meta_event_type as MetaEventType,
    meta_event_id: d.target_id,
    data: null,
    occurred_at: toTimestamp(new Date()),
  };
}

function deliveryMessage(d: ScheduleDoc): DeliveryMessage {
  return {
    delivery_id: d.target_id,
    project_id: d.project_id,
    endpoint_id: d.endpoint_id,
    event_id: d.event_id as string,
    reason: 'retry',
    due_at: toTimestamp(d.due_at),
  };
}
