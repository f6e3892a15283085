import net from 'node:net';
import tls from 'node:tls';
import type { ISocketFactory, Kafka } from 'kafkajs';
import { guardedLookup, refusedLiteral } from '@hookrail/outbound';
import type { KafkaSettings } from './settings';

// Where a tenant's broker source may connect (docs/brokers.md). Broker hosts are the tenant's
// choice, so unless the deployment allows private hosts (`HOOKRAIL_ALLOW_PRIVATE_BROKERS`: its
// brokers live on the internal network) they pass the webhooks' address guard (libs/outbound):
// every connection's DNS answer is checked, on the addresses actually connected to, and IP
// literals before connecting. Kafka's metadata names further brokers, so the guard sits in the
// socket factory, which sees every broker connection, not only the bootstrap list.

/** Socket options for amqplib: its connection goes through the guarded lookup. */
export function amqpSocketOptions(allowPrivate: boolean): { lookup?: typeof guardedLookup } {
  return allowPrivate ? {} : { lookup: guardedLookup };
}

/** kafkajs' default socket factory with the guard on every broker connection. */
export const guardedKafkaSocketFactory: ISocketFactory = ({ host, port, ssl, onConnect }) => {
  const refused = refusedLiteral(host, false);
  if (refused) {
    const socket = new net.Socket();
    process.nextTick(() => socket.destroy(refused));
    return socket;
  }
  const lookup = guardedLookup as unknown as net.LookupFunction;
  return ssl
    ? tls.connect({ host, port, lookup, ...(net.isIP(host) ? {} : { servername: host }), ...ssl }, onConnect)
    : net.connect({ host, port, lookup }, onConnect);
};

/** A source's settings refused before anything is consumed; `field` names what to change. */
export class BrokerRefusedError extends Error {
  override readonly name = 'BrokerRefusedError';
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A Kafka source may use Hookrail's own cluster for its own topics, never for Hookrail's: reading
 * `<prefix>.deliveries` would show every tenant's payloads, and joining a `<prefix>.` group would
 * rebalance Hookrail's consumers. The cluster is recognised by its id, so an alias, a proxy or an
 * advertised listener cannot hide it.
 */
export async function refuseHookrailTopics(
  s: KafkaSettings,
  clusterId: () => Promise<string>,
): Promise<void> {
  const own = s.ownKafka;
  if (!own) return;
  const reserved = `${own.topicPrefix}.`;
  if (!s.topic.startsWith(reserved) && !s.groupId.startsWith(reserved)) return;
  if ((await clusterId()) !== own.clusterId) return;
  throw s.topic.startsWith(reserved)
    ? new BrokerRefusedError(
        'pub_sub.kafka.topic_name',
        `topic "${s.topic}" is one of Hookrail's own topics (prefix "${reserved}") on its own cluster`,
      )
    : new BrokerRefusedError(
        'pub_sub.kafka.consumer_group_id',
        `consumer group "${s.groupId}" is in Hookrail's own namespace ("${reserved}") on its own cluster`,
      );
}

/** The cluster id as a source's own client sees it (an admin connection of its own). */
export async function clusterIdOf(kafka: Kafka): Promise<string> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    return (await admin.describeCluster()).clusterId;
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}
