import { PROVIDERS, type Provider } from '@hookrail/api-contract';
import { hmac } from '../schemes';
import type { HmacCheck } from './hmac.verifier';

export function isProvider(value: unknown): value is Provider {
  return (PROVIDERS as readonly unknown[]).includes(value);
}

/** How each provider signs its webhooks; the secret comes from the source's `verifier.hmac.secret`. */
const PROVIDER_CHECKS: Record<Provider, Omit<HmacCheck, 'secret'>> = {
  github: { header: 'X-Hub-Signature-256', hash: 'SHA256', encoding: 'hex', prefix: 'sha256=' },
  shopify: { header: 'X-Shopify-Hmac-SHA256', hash: 'SHA256', encoding: 'base64' },
  twitter: { header: 'X-Twitter-Webhooks-Signature', hash: 'SHA256', encoding: 'base64', prefix: 'sha256=' },
};

export function providerCheck(provider: Provider, secret: string): HmacCheck {
  return { ...PROVIDER_CHECKS[provider], secret };
}

/** Header carrying the event type, where the provider sends one. */
export const PROVIDER_EVENT_TYPE_HEADER: Partial<Record<Provider, string>> = {
  github: 'x-github-event',
  shopify: 'x-shopify-topic',
};

/** Twitter's challenge-response check: `GET ?crc_token=X` answers HMAC-SHA256(secret, X) in base64. */
export function twitterCrcResponse(secret: string, crcToken: string): { response_token: string } {
  return { response_token: `sha256=${hmac('SHA256', 'base64', secret, crcToken)}` };
}
