import { advancedScheme } from './advanced';
import type { SignatureConfig } from '@hookrail/api-contract';
import type { SignatureScheme } from './scheme';
import { simpleScheme } from './simple';
import { standardWebhooksScheme } from './standard-webhooks';

/** Every signature scheme, in the order a request's headers are written. A new scheme is one line here. */
export const SIGNATURE_SCHEMES = [simpleScheme, advancedScheme, standardWebhooksScheme] as const;

export type SignatureSchemeName = (typeof SIGNATURE_SCHEMES)[number]['name'];

export function signatureScheme(name: SignatureSchemeName): SignatureScheme {
  const scheme = SIGNATURE_SCHEMES.find((s) => s.name === name);
  if (!scheme) throw new Error(`unknown signature scheme ${name}`);
  return scheme;
}

/** Lower-case names of every header any scheme writes under this config, applied or not. */
export function signatureHeaderNames(config: SignatureConfig): Set<string> {
  return new Set(SIGNATURE_SCHEMES.flatMap((s) => s.headerNames(config).map((h) => h.toLowerCase())));
}
