import { traceAttributes, type DeliveryMessage, type Publisher } from '@hookrail/bus';
import { SpanKind, withSpan, type Metrics } from '@hookrail/telemetry';
import { LocalSlots } from './local-slots';
import type { SendDelivery } from './send-delivery';

/** The span of a first send made by the router's process (in place of the deliveries consumer's). */
export const LOCAL_SEND_SPAN = 'send delivery';

export interface FirstSendsDeps {
  /** Whether this process owns the endpoint's partition of the deliveries topic now. */
  owns: (endpointId: string) => boolean;
  /** The sender (createSender). */
  send: SendDelivery;
  publisher: Publisher;
  metrics: Metrics;
  /**
   * First-send attempts in progress here at once; more are published (a slow endpoint must not
   * hold routing). A slot is held until the attempt's request has its answer, not through the
   * record that follows, which waits for the process's next record write: what a slot stands for
   * is a request to an endpoint, and records pending are bounded by the router's own in-flight.
   */
  maxLocal: number;
  /**
   * How long a first send may wait for one of the maxLocal slots before it is published instead.
   * Under a backlog to an endpoint its slots turn over as its requests are answered, and a send
   * made here costs a produce, a fetch and a decode less than one that goes round the topic. Only
   * a send to an endpoint that already holds slots waits, and only while some slot was released in
   * the last `slotStallMs`: an endpoint with nothing running here does not queue behind others,
   * and nobody waits on endpoints that hang.
   */
  slotWaitMs: number;
  slotStallMs: number;
}

/**
 * Where the router's first sends go: one whose endpoint this process owns on the deliveries
 * topic is sent here at once (published, it would come back to this process a Kafka round trip
 * later, and per-endpoint limits and breakers stay with their one owner either way); the others
 * are published. The event's offset is committed only once every first send is recorded or
 * published, so a crash routes the event again and resends with the same delivery ids.
 */
export function createFirstSends(
  deps: FirstSendsDeps,
): (messages: DeliveryMessage[], leaveWindow?: () => void) => Promise<void> {
  const sent = deps.metrics.counter(
    'hookrail_first_sends_total',
    'First sends of deliveries, by whether this process sent them or published them',
    ['path'],
  );
  const slots = new LocalSlots({
    max: deps.maxLocal,
    maxWaitMs: deps.slotWaitMs,
    stallMs: deps.slotStallMs,
  });
  const takeLocal = async (endpointId: string): Promise<boolean> => {
    if (!deps.owns(endpointId) || !(await slots.take(endpointId))) return false;
    if (deps.owns(endpointId)) return true;
    slots.release(endpointId); // the partition moved to another process while this send waited
    return false;
  };
  return async (messages, leaveWindow) => {
    const here: DeliveryMessage[] = [];
    const published: DeliveryMessage[] = [];
    for (const m of messages) ((await takeLocal(m.endpoint_id)) ? here : published).push(m);
    if (here.length) sent.inc({ path: 'local' }, here.length);
    if (published.length) sent.inc({ path: 'published' }, published.length);
    await Promise.all([
      deps.publisher.publish('deliveries', published),
      ...here.map((m) => {
        let held = true;
        const release = () => {
          if (held) slots.release(m.endpoint_id);
          held = false;
        };
        return withSpan(LOCAL_SEND_SPAN, { kind: SpanKind.INTERNAL, attributes: traceAttributes(m) }, () =>
          // Waiting for its endpoint's slot, it frees its local one (the lanes bound attempts)
          // and its event's place in the router's window.
          deps.send(m, release, () => {
            release();
            leaveWindow?.();
          }),
        ).finally(release);
      }),
    ]);
  };
}
