import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isBlockedAddress } from '@hookrail/outbound';
import type { DestinationSettings } from './destination-settings';

/** Host names of a `host:port` list entry (IPv6 literals in brackets). */
const hostOf = (hostPort: string): string => {
  const m = /^\[([^\]]+)\](?::\d+)?$/.exec(hostPort);
  return m ? m[1] : hostPort.replace(/:\d+$/, '');
};

async function refusedHost(host: string): Promise<string | undefined> {
  const addresses = isIP(host)
    ? [host]
    : (await lookup(host, { all: true }).catch(() => [])).map((a) => a.address);
  const bad = addresses.find(isBlockedAddress);
  return bad === undefined
    ? undefined
    : `${host} is a private, loopback or link-local address (${bad}); this deployment does not allow them`;
}

/**
 * A destination's AMQP host or Kafka brokers on a private, loopback or link-local address, unless
 * the deployment allows private targets (HOOKRAIL_ALLOW_PRIVATE_TARGETS, the webhooks' switch: a
 * destination is where Hookrail sends, like a webhook URL). Checked when the endpoint is written
 * (400 naming the field); the publisher's connections are guarded again on every connect, so a
 * name that resolves differently later is still refused. SQS and Pub/Sub endpoints are the
 * deployment's or the cloud's, never the tenant's: nothing to check.
 */
export async function refusedDestination(
  d: DestinationSettings,
): Promise<{ field: string; message: string } | undefined> {
  if (d.kind === 'amqp' && !d.connection.allowPrivateHosts) {
    const problem = await refusedHost(new URL(d.connection.url).hostname.replace(/^\[|\]$/g, ''));
    if (problem) return { field: 'destination.host', message: problem };
  }
  if (d.kind === 'kafka' && !d.connection.allowPrivateHosts) {
    for (const b of d.connection.brokers) {
      const problem = await refusedHost(hostOf(b));
      if (problem) return { field: 'destination.brokers', message: problem };
    }
  }
  return undefined;
}
