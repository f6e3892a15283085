import type { SignatureVersion } from './hmac';
import { activeSecrets, type SigningSecret } from './secrets';
import { signAdvanced } from './advanced';
import { signSimple } from './simple';
import { signStandardWebhooks } from './standard-webhooks';

/** Project `config.signature`. */
export interface SignatureConfig {
  header: string;
  versions: SignatureVersion[];
  standard_webhooks: boolean;
}

export type SignatureHeadersResult =
  | { kind: 'signed'; headers: Record<string, string> }
  | { kind: 'no_secret'; headers: Record<string, string> };

const DEFAULT_VERSION: SignatureVersion = { hash: 'SHA256', encoding: 'hex' };

/**
 * Every signature header of one request, computed over `body` (the exact bytes sent):
 * the project's header (simple, or advanced when the endpoint has advanced_signatures) and, when
 * the project enables it, the Standard Webhooks headers. With no valid secret nothing is signed.
 */
export function signatureHeaders(opts: {
  body: string | Buffer;
  secrets: SigningSecret[];
  advanced: boolean;
  config: SignatureConfig;
  /** Stable message id (the delivery id) for Standard Webhooks' webhook-id. */
  msgId: string;
  now: Date;
}): SignatureHeadersResult {
  const valid = activeSecrets(opts.secrets, opts.now).map((s) => s.value);
  if (valid.length === 0) return { kind: 'no_secret', headers: {} };
  const versions = opts.config.versions.length > 0 ? opts.config.versions : [DEFAULT_VERSION];
  const t = Math.floor(opts.now.getTime() / 1000);
  const headers: Record<string, string> = {};
  headers[opts.config.header] = opts.advanced
    ? signAdvanced({ body: opts.body, secrets: valid, versions, timestampSeconds: t })
    : // Simple signatures use the newest secret and the newest configured version.
      signSimple(opts.body, valid[valid.length - 1], versions[versions.length - 1]);
  if (opts.config.standard_webhooks) {
    Object.assign(
      headers,
      signStandardWebhooks({ msgId: opts.msgId, timestampSeconds: t, body: opts.body, secrets: valid }),
    );
  }
  return { kind: 'signed', headers };
}
