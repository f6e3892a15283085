import type { PublishGuard, Publisher } from '@hookrail/bus';
import type { Delivery, DeliveryHandler, Verdict } from '@hookrail/brokers';
import { errorMessage, isRetriable, newId, type ProjectId } from '@hookrail/domain';
import type { FunctionPool } from '@hookrail/functions';
import {
  acceptMessage,
  type AcceptMessageDeps,
  type EventValidator,
  type MessageProject,
  type MessageSource,
} from '@hookrail/ingest';
import type { ConfigCache } from '@hookrail/store';
import { extractTraceContext, SpanKind, withSpan, type Metrics } from '@hookrail/telemetry';

export interface HandlerDeps {
  publisher: Publisher;
  functions: FunctionPool;
  cache: ConfigCache;
  metrics: Metrics;
  /** Bounds a message's wait for Kafka's acknowledgement; unacknowledged, it is left for redelivery. */
  acceptGuard: PublishGuard;
  /** Checks the sources' events against their project's event type catalog. */
  validator: EventValidator;
}

/**
 * The broker message → event adapter: the shared ingest rules (libs/ingest acceptMessage) decide,
 * this maps their outcome to the subscriber's verdict. A trace context in the message's headers
 * (`traceparent`) becomes the parent of the span, so the event's Kafka headers continue it.
 */
export function messageHandler(
  kind: string,
  source: MessageSource,
  project: MessageProject,
  deps: HandlerDeps,
): DeliveryHandler {
  const duration = deps.metrics.histogram(
    'hookrail_source_message_duration_seconds',
    'Time from receiving a broker message to its verdict, Kafka acknowledgement included',
    ['kind'],
  );
  const ingestDeps: AcceptMessageDeps = {
    sink: {
      publisher: deps.publisher,
      acceptGuard: deps.acceptGuard,
      ordersDeliveries: (projectId: ProjectId) => deps.cache.ordersDeliveries(projectId),
    },
    runFunction: (text: string, input: unknown, scope: string) => deps.functions.run(text, input, { scope }),
    endpointExists: (projectId: ProjectId, endpointId: string) =>
      deps.cache.endpointExists(projectId, endpointId),
    // The settings are read per message (cached briefly), so a change applies without a restart.
    checkEvent: async (type: string, data: unknown, bytes: number) =>
      deps.validator.check(
        source.project_id,
        (await deps.cache.project(source.project_id))?.config.event_validation,
        type,
        data,
        bytes,
      ),
    newId,
    now: () => new Date(),
  };
  return async (d: Delivery): Promise<Verdict> => {
    const end = duration.startTimer({ kind });
    try {
      return await withSpan(
        `consume ${kind} source`,
        { parent: extractTraceContext(d.headers), kind: SpanKind.CONSUMER },
        async (): Promise<Verdict> => {
          const out = await acceptMessage(source, project, d, ingestDeps);
          switch (out.kind) {
            case 'accepted':
              return { kind: 'ack' };
            case 'unavailable':
              return { kind: 'retry', reason: out.message };
            case 'rejected':
              return { kind: 'reject', reason: out.reason };
          }
        },
      );
    } catch (err) {
      // A dependency failed (the database behind an endpoint lookup): try again later. A bug is
      // never retried; it would block the queue.
      return isRetriable(err)
        ? { kind: 'retry', reason: errorMessage(err) }
        : { kind: 'reject', reason: `internal error: ${errorMessage(err)}` };
    } finally {
      end();
    }
  };
}
