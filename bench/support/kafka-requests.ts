/** Requests each service sent to Kafka, from its `hookrail_kafka_requests_total` counters. */
export type KafkaRequestCounts = Map<string, number>;

export async function kafkaRequests(services: { name: string; url: string }[]): Promise<KafkaRequestCounts> {
  const counts: KafkaRequestCounts = new Map();
  for (const svc of services) {
    const text = await fetch(`${svc.url}/metrics`).then((r) => r.text());
    for (const m of text.matchAll(/^hookrail_kafka_requests_total\{([^}]*)\} (\S+)$/gm)) {
      const label = (name: string) => new RegExp(`${name}="([^"]+)"`).exec(m[1])?.[1];
      counts.set(`${svc.name} ${label('client')} ${label('api')}`, Number(m[2]));
    }
  }
  return counts;
}

/** Requests per delivered event between two snapshots, the busiest first (under 0.01 left out). */
export function requestsPerEvent(
  before: KafkaRequestCounts,
  after: KafkaRequestCounts,
  events: number,
): string {
  const n = Math.max(1, events);
  const rows = [...after]
    .map(([name, c]) => ({ name, perEvent: (c - (before.get(name) ?? 0)) / n }))
    .sort((x, y) => y.perEvent - x.perEvent);
  const total = rows.reduce((sum, r) => sum + r.perEvent, 0);
  const shown = rows.filter((r) => r.perEvent >= 0.01).map((r) => `${r.name} ${r.perEvent.toFixed(2)}`);
  return `${total.toFixed(2)} in all: ${shown.join(', ')}`;
}
