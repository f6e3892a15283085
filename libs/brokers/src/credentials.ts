import { mapPaths } from '@hookrail/toolbox';

/** Where a `pub_sub` object keeps credentials (sealed at rest by the API, opened to connect). */
export const BROKER_CREDENTIAL_PATHS = [
  'sqs.secret_key',
  'amqp.auth.password',
  'kafka.auth.password',
] as const;

/** A copy of `pubSub` with `open` applied to each credential present. */
export function openBrokerCredentials<T>(pubSub: T, open: (sealed: string) => string): T {
  return mapPaths(pubSub, BROKER_CREDENTIAL_PATHS, open);
}
