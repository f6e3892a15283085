import {
  BrokerSettingsError,
  destinationEnvironment,
  destinationSettings,
  DESTINATION_CREDENTIAL_PATHS,
  isDestinationKind,
  refusedDestination,
} from '@hookrail/brokers';
import { ValidationError } from '@hookrail/domain';
import { mapPaths } from '@hookrail/toolbox';
import type { EndpointDoc, EndpointType } from '@hookrail/store';
import type { GatewayDeps } from '../deps';

type Json = Record<string, unknown>;

const invalid = (field: string, message: string) =>
  new ValidationError(`${field}: ${message}`, [{ field, message }]);

/** The Pub/Sub key file as base64 text, so it is sealed like every other credential. */
function keyAsText(destination: Json): Json {
  const key = destination.service_account;
  return Array.isArray(key)
    ? { ...destination, service_account: Buffer.from(key as number[]).toString('base64') }
    : destination;
}

function getPath(obj: Json | null | undefined, path: string): unknown {
  let node: unknown = obj;
  for (const part of path.split('.'))
    node = node && typeof node === 'object' ? (node as Json)[part] : undefined;
  return node;
}

function setPath(obj: Json, path: string, value: unknown): void {
  const parts = path.split('.');
  let node = obj;
  for (const part of parts.slice(0, -1)) {
    if (!node[part] || typeof node[part] !== 'object') node[part] = {};
    node = node[part] as Json;
  }
  node[parts[parts.length - 1]] = value;
}

/**
 * The endpoint's `type`, `url` and `destination` after a create (`current` absent) or an update:
 * http needs a url; a broker type needs its settings, which must map (settings.ts), and an AMQP
 * host or Kafka broker on a private address is refused unless the deployment allows private
 * targets. Credentials are sealed; on update a credential left out keeps its stored value.
 */
export async function destinationFields(
  deps: GatewayDeps,
  body: { type?: EndpointType; url?: string; destination?: Json | null },
  current?: EndpointDoc,
): Promise<{ type: EndpointType; url: string; destination: Json | null }> {
  const type: EndpointType = body.type ?? current?.type ?? 'http';
  if (type === 'cli') {
    // deliveries go to whichever `hookrail listen` is connected: there is nowhere to configure
    if (body.url) throw invalid('url', 'is not for cli endpoints (hookrail listen says where they go)');
    if (body.destination) throw invalid('destination', 'is only for broker endpoints (type is cli)');
    return { type, url: '', destination: null };
  }
  if (!isDestinationKind(type)) {
    const url = body.url ?? (current?.type === 'http' || !current?.type ? (current?.url ?? '') : '');
    if (!url) throw invalid('url', 'is required for an http endpoint');
    if (body.destination) throw invalid('destination', 'is only for broker endpoints (type is http)');
    return { type, url, destination: null };
  }
  if (body.url) throw invalid('url', `is only for http endpoints (type is ${type})`);
  const sameKind = current?.type === type;
  const given = body.destination ?? (sameKind ? undefined : null);
  if (given === null) throw invalid('destination', `is required for a ${type} endpoint`);
  if (given === undefined) return { type, url: '', destination: current?.destination ?? null };
  const plain = keyAsText(given);
  // Credentials the body leaves out keep their stored (sealed) value when the kind is unchanged.
  const kept = DESTINATION_CREDENTIAL_PATHS.filter(
    (p) => sameKind && !getPath(plain, p) && typeof getPath(current?.destination, p) === 'string',
  );
  const opened = structuredClone(plain);
  for (const p of kept) setPath(opened, p, deps.box.open(getPath(current?.destination, p) as string));
  // What the dispatcher will read: checked now, so a destination that cannot work is a 400.
  let settings;
  try {
    settings = destinationSettings('check', type, opened, destinationEnvironment(deps.config));
  } catch (err) {
    if (!(err instanceof BrokerSettingsError)) throw err;
    const field = /^(destination(\.\w+)*)/.exec(err.message)?.[1] ?? 'destination';
    throw invalid(field, err.message.replace(/^destination(\.\w+)* /, ''));
  }
  const refused = await refusedDestination(settings);
  if (refused) throw invalid(refused.field, refused.message);
  const sealed = mapPaths(plain, DESTINATION_CREDENTIAL_PATHS, (v) => deps.box.seal(v));
  for (const p of kept) setPath(sealed, p, getPath(current?.destination, p));
  return { type, url: '', destination: sealed };
}
