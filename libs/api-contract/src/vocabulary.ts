/**
 * Names the API accepts and the engine implements. They live here, in the lowest layer, because the
 * browser imports this contract: the libs that implement them import the lists from here.
 */

/** Meta event types: what a project can select and receive. */
export const META_EVENT_TYPES = [
  'endpoint.created',
  'endpoint.updated',
  'endpoint.deleted',
  'endpoint.disabled',
  'eventdelivery.success',
  'eventdelivery.failed',
  'endpoint.alert',
  // A broker source's broker became unreachable / consumption resumed (source-consumer).
  'source.unreachable',
  'source.recovered',
  // A change stream source's resume point is gone from the database: it waits for a restart from now.
  'source.resume_lost',
] as const;
export type MetaEventType = (typeof META_EVENT_TYPES)[number];

/** Providers whose webhook signatures an HTTP source verifies by name. */
export const PROVIDERS = ['github', 'shopify', 'twitter'] as const;
export type Provider = (typeof PROVIDERS)[number];

/** Algorithms an OAuth2 client-assertion key may use (RFC 7518); `none` and HMAC with a public key are excluded. */
export const SUPPORTED_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'HS256',
  'HS384',
  'HS512',
] as const;

/** The outcomes delivery statistics count. */
export const DELIVERY_OUTCOMES = ['Success', 'Retry', 'Failure', 'Discarded'] as const;

/** The windows delivery statistics cover (each with its own step). */
export const STATS_WINDOW_NAMES = ['hour', 'day'] as const;
export type StatsWindowName = (typeof STATS_WINDOW_NAMES)[number];
