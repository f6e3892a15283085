import { BlockList, isIP } from 'node:net';
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';

/**
 * Addresses a webhook must never reach unless the instance allows private targets:
 * private, loopback, link-local (cloud metadata lives there),
 * carrier-grade NAT, unspecified, multicast and reserved ranges, IPv4 and IPv6.
 */
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  // IPv4-compatible (deprecated) addresses such as ::7f00:1 (IPv4-mapped ones are judged as IPv4).
  ['::', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

/** True when `ip` is in a range webhooks may not target. IPv4-mapped IPv6 is judged as IPv4. */
export function isBlockedAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 4) return blocked.check(ip, 'ipv4');
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
    if (mapped) return blocked.check(mapped[1], 'ipv4');
    return blocked.check(ip, 'ipv6');
  }
  return false;
}

/** A refused target. `code` lets the HTTP layer tell it apart (the request never left). */
export class SsrfRefusedError extends Error {
  readonly code = 'ESSRF';
  constructor(readonly target: string) {
    super(`refused to connect to ${target}: private, loopback or link-local addresses are not allowed`);
    this.name = 'SsrfRefusedError';
  }
}

/**
 * Checks a host that is an IP literal (bracketed IPv6 too): literals never go through DNS lookup,
 * so the guarded lookup never sees them. Names are left to the lookup.
 */
export function refusedLiteral(host: string, allowPrivate: boolean): SsrfRefusedError | undefined {
  if (allowPrivate) return undefined;
  const bare = host.replace(/^\[|\]$/g, '');
  return isIP(bare) && isBlockedAddress(bare) ? new SsrfRefusedError(bare) : undefined;
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** Resolves every address of a name (node's `dns.lookup` with `all: true`, or a test double). */
export type Resolve = (
  hostname: string,
  options: LookupOptions & { all: true },
  callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

export type GuardedLookup = (
  hostname: string,
  options: LookupOptions | LookupCallback,
  callback?: LookupCallback,
) => void;

/**
 * A `dns.lookup` replacement for outbound sockets: resolves every address and refuses the host
 * when any of them is blocked, so a name with one public and one private record is refused too.
 * It runs for every new connection, on the addresses the socket will actually use, so a name
 * that resolved to a public address when it was saved and to a private one now (DNS rebinding)
 * is refused at connect time; there is no separate, earlier check to race.
 */
export function createGuardedLookup(resolve: Resolve = dnsLookup as unknown as Resolve): GuardedLookup {
  return (hostname, options, callback) => guarded(resolve, hostname, options, callback);
}

export const guardedLookup: GuardedLookup = createGuardedLookup();

function guarded(
  resolve: Resolve,
  hostname: string,
  options: LookupOptions | LookupCallback,
  callback?: LookupCallback,
): void {
  const cb = (typeof options === 'function' ? options : callback) as LookupCallback;
  const opts: LookupOptions = typeof options === 'function' ? {} : options;
  resolve(hostname, { ...opts, all: true }, (err, addresses) => {
    if (err) return cb(err, []);
    const bad = addresses.find((a) => isBlockedAddress(a.address));
    if (bad) return cb(new SsrfRefusedError(`${hostname} (${bad.address})`), []);
    if (opts.all) return cb(null, addresses);
    const first = addresses[0];
    return cb(null, first.address, first.family);
  });
}
