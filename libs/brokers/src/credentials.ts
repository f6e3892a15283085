/** Where a `pub_sub` object keeps credentials (sealed at rest by the API, opened to connect). */
export const BROKER_CREDENTIAL_PATHS = [
  'sqs.secret_key',
  'amqp.auth.password',
  'kafka.auth.password',
] as const;

type Json = Record<string, unknown>;

/** A copy of `pubSub` with `open` applied to each credential present. */
export function openBrokerCredentials(pubSub: Json, open: (sealed: string) => string): Json {
  const copy = structuredClone(pubSub);
  for (const path of BROKER_CREDENTIAL_PATHS) {
    const parts = path.split('.');
    let node: unknown = copy;
    for (const part of parts.slice(0, -1))
      node = node && typeof node === 'object' ? (node as Json)[part] : undefined;
    const last = parts[parts.length - 1];
    if (node && typeof node === 'object' && typeof (node as Json)[last] === 'string')
      (node as Json)[last] = open((node as Json)[last] as string);
  }
  return copy;
}
