import type { EventMessage } from '@hookrail/bus';
import type { EventSink } from '../publish-accepted';

/**
 * An event sink for unit tests: what is published to `events` is pushed to `published`, the
 * guard runs the send as it is, and no project orders deliveries unless `over` says so.
 */
export function recordingSink(published: EventMessage[], over: Partial<EventSink> = {}): EventSink {
  return {
    publisher: {
      publish: async (topic, messages) => {
        if (topic === 'events') published.push(...(messages as EventMessage[]));
      },
    },
    acceptGuard: { run: (send) => send() },
    ordersDeliveries: () => false,
    ...over,
  };
}
