/** What an endpoint's address reads as for people: lists, pages, notices, meta events. */
export interface AddressedEndpoint {
  type?: string;
  url: string;
  destination?: Record<string, unknown> | null;
}

const s = (x: unknown) => (typeof x === 'string' || typeof x === 'number' ? String(x) : '');

/**
 * The URL of an http endpoint; for a broker, the kind and where it publishes, from the stored
 * settings without their credentials (a broker endpoint's `url` is empty); for a cli endpoint,
 * `hookrail listen`.
 */
export function endpointAddress(e: AddressedEndpoint): string {
  const d = e.destination ?? {};
  switch (e.type ?? 'http') {
    case 'kafka':
      return `Kafka ${(Array.isArray(d.brokers) ? d.brokers : []).join(', ')} · topic ${s(d.topic_name)}`;
    case 'amqp':
      return `RabbitMQ ${s(d.host)}${d.port ? `:${s(d.port)}` : ''} · ${
        d.exchange
          ? `exchange ${s(d.exchange)} · routing key ${s(d.routingKey || d.queue)}`
          : `queue ${s(d.queue)}`
      }`;
    case 'sqs':
      return `SQS ${s(d.default_region)} · queue ${s(d.queue_name)}`;
    case 'google_pubsub':
      return `Pub/Sub projects/${s(d.project_id)}/topics/${s(d.topic_id)}`;
    case 'cli':
      // where it goes is the connected `hookrail listen`'s choice (the attempts show its local URL)
      return 'hookrail listen';
    default:
      return e.url;
  }
}
