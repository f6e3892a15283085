import { attemptRecord } from '../attempt-record';
import { listenerLabel, relayToListener, withoutListener } from '../relay-to-listener';
import { requestDuration, type Destination } from './destination';

/**
 * A `cli` endpoint: the same signed request, relayed to the connected `hookrail listen`; its local
 * URL's answer is the attempt's, recorded and retried like an HTTP one. Nobody listening is no
 * attempt: the delivery is held, or discarded once it waited too long (withoutListener).
 */
export const cliDestination: Destination = {
  type: 'cli',
  open(ctx) {
    const observe = requestDuration(ctx.metrics);
    return async (endpoint, request) => {
      const { delivery } = request;
      const relayed = ctx.cliRelay
        ? await relayToListener(
            ctx.cliRelay,
            endpoint,
            {
              body: request.body,
              headers: request.headers,
              eventId: request.eventId,
              eventType: delivery.event_type,
              deliveryId: delivery._id,
            },
            request.timeoutMs,
          )
        : {
            result: { kind: 'not_sent', message: 'this dispatcher relays to no hookrail listen' } as const,
            url: listenerLabel(endpoint),
          };
      if ('noListener' in relayed)
        return { kind: 'no_attempt', decision: withoutListener(delivery, ctx.now()) };
      observe(relayed.result);
      return {
        kind: 'attempt',
        result: relayed.result,
        record: () => attemptRecord(relayed.url, request.headers, relayed.result, []),
      };
    };
  },
};
