import type { Consumer, Producer, RequestEvent } from 'kafkajs';
import type { Metrics } from '@hookrail/telemetry';

/**
 * Counts the requests a kafkajs client sends, by API (Produce, Fetch, OffsetCommit, Heartbeat…):
 * at low rates Kafka's cost is per request, not per byte, so this is what to watch.
 */
export function countKafkaRequests(client: Consumer | Producer, metrics: Metrics, name: string): void {
  const requests = metrics.counter(
    'hookrail_kafka_requests_total',
    'Requests sent to Kafka, by client and API',
    ['client', 'api'],
  );
  const count = (e: RequestEvent) => requests.inc({ client: name, api: e.payload.apiName });
  // The two clients type their `on` separately; both emit the same request event.
  if ('subscribe' in client) client.on(client.events.REQUEST, count);
  else client.on(client.events.REQUEST, count);
}
