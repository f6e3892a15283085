import { BROKER_CREDENTIAL_PATHS } from '@hookrail/brokers';
import { type SecretBox } from '@hookrail/domain';
import { mapPaths } from '@hookrail/toolbox';

/**
 * Credentials stored inside user objects that must be read back (brief: verifier secrets, broker
 * passwords, endpoint auth) are sealed at these paths on write and opened on read.
 */
export const SOURCE_CREDENTIALS = [
  'verifier.hmac.secret',
  'verifier.basic_auth.password',
  'verifier.api_key.header_value',
  ...BROKER_CREDENTIAL_PATHS.map((p) => `pub_sub.${p}`),
  // The user's database: its connection string carries the password (never returned).
  'db_change_stream.connection_string',
];

/** Private members of a JWK (RFC 7518) and the other endpoint credentials. */
export const ENDPOINT_CREDENTIALS = [
  'authentication.api_key.header_value',
  'authentication.basic_auth.password',
  'authentication.oauth2.client_secret',
  ...['d', 'p', 'q', 'dp', 'dq', 'qi', 'k'].map((m) => `authentication.oauth2.signing_key.${m}`),
  'mtls_client_cert.client_key',
];

export const seal = <T>(box: SecretBox, obj: T, paths: string[]): T =>
  mapPaths(obj, paths, (v) => box.seal(v));
export const open = <T>(box: SecretBox, obj: T, paths: string[]): T =>
  mapPaths(obj, paths, (v) => box.open(v));
