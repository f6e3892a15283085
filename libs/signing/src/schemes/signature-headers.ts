import type { SignatureConfig } from '@hookrail/api-contract';
import { SIGNATURE_SCHEMES } from './registry';
import { activeSecrets, type SigningSecret } from './secrets';

export type SignatureHeadersResult =
  | { kind: 'signed'; headers: Record<string, string> }
  | { kind: 'no_secret'; headers: Record<string, string> };

/**
 * Every signature header of one request, computed over `body` (the exact bytes sent) by each
 * scheme that applies to the endpoint under the project's config. With no valid secret nothing is
 * signed.
 */
export function signatureHeaders(opts: {
  body: string | Buffer;
  secrets: SigningSecret[];
  /** The endpoint's `advanced_signatures`. */
  advanced: boolean;
  config: SignatureConfig;
  /** Stable message id (the delivery id) for Standard Webhooks' webhook-id. */
  msgId: string;
  now: Date;
}): SignatureHeadersResult {
  const secrets = activeSecrets(opts.secrets, opts.now).map((s) => s.value);
  if (secrets.length === 0) return { kind: 'no_secret', headers: {} };
  const input = {
    body: opts.body,
    secrets,
    config: opts.config,
    msgId: opts.msgId,
    timestampSeconds: Math.floor(opts.now.getTime() / 1000),
  };
  const headers: Record<string, string> = {};
  for (const scheme of SIGNATURE_SCHEMES) {
    if (scheme.appliesTo({ config: opts.config, advanced: opts.advanced }))
      Object.assign(headers, scheme.sign(input));
  }
  return { kind: 'signed', headers };
}
