import type { SecretBox } from '@hookrail/domain';

/**
 * Credentials stored inside user objects that must be read back (brief: verifier secrets, broker
 * passwords, endpoint auth) are sealed at these paths on write and opened on read.
 */
export const SOURCE_CREDENTIALS = [
  'verifier.hmac.secret',
  'verifier.basic_auth.password',
  'verifier.api_key.header_value',
  'pub_sub.sqs.secret_key',
  'pub_sub.amqp.auth.password',
  'pub_sub.kafka.auth.password',
];

/** Private members of a JWK (RFC 7518) and the other endpoint credentials. */
export const ENDPOINT_CREDENTIALS = [
  'authentication.api_key.header_value',
  'authentication.basic_auth.password',
  'authentication.oauth2.client_secret',
  ...['d', 'p', 'q', 'dp', 'dq', 'qi', 'k'].map((m) => `authentication.oauth2.signing_key.${m}`),
  'mtls_client_cert.client_key',
];

type Json = Record<string, unknown>;

/** Returns a deep copy of `obj` with `fn` applied to the string at each dotted path that exists. */
export function mapPaths<T>(obj: T, paths: string[], fn: (value: string) => string): T {
  if (obj === null || obj === undefined) return obj;
  const copy = structuredClone(obj) as Json;
  for (const path of paths) {
    const parts = path.split('.');
    let node: unknown = copy;
    for (const part of parts.slice(0, -1))
      node = node && typeof node === 'object' ? (node as Json)[part] : undefined;
    const last = parts[parts.length - 1];
    if (node && typeof node === 'object' && typeof (node as Json)[last] === 'string')
      (node as Json)[last] = fn((node as Json)[last] as string);
  }
  return copy as T;
}

export const seal = <T>(box: SecretBox, obj: T, paths: string[]): T =>
  mapPaths(obj, paths, (v) => box.seal(v));
export const open = <T>(box: SecretBox, obj: T, paths: string[]): T =>
  mapPaths(obj, paths, (v) => box.open(v));
