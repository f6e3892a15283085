import { createHmac, randomBytes } from 'node:crypto';
import { safeEqual } from '@hookrail/domain';
import { withinReplayWindow } from './replay-window';
import type { SignatureScheme } from './scheme';

const WHSEC = 'whsec_';
const STANDARD_WEBHOOKS_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;

/**
 * A generated secret for Standard Webhooks mode: `whsec_` and 32 random bytes in base64, the form
 * the Standard Webhooks libraries take as is (`new Webhook(secret)`); the spec asks for 24 to 64.
 */
export function generateStandardWebhooksSecret(): string {
  return WHSEC + randomBytes(32).toString('base64');
}

/** A `whsec_` secret carries its key base64-encoded; any other secret is used as its bytes. */
export function standardWebhooksKey(secret: string): Buffer {
  return secret.startsWith(WHSEC)
    ? Buffer.from(secret.slice(WHSEC.length), 'base64')
    : Buffer.from(secret, 'utf8');
}

/** One `v1,<base64 HMAC-SHA256(key, "<id>.<t>.<body>")>`. */
function signatureOf(secret: string, msgId: string, t: string, body: string | Buffer): string {
  const mac = createHmac('sha256', standardWebhooksKey(secret));
  mac.update(`${msgId}.${t}.`);
  mac.update(body);
  return `v1,${mac.digest('base64')}`;
}

/**
 * Standard Webhooks (https://www.standardwebhooks.com): `webhook-signature` is a space-separated
 * list of signatures, one per valid secret.
 */
export function signStandardWebhooks(opts: {
  msgId: string;
  timestampSeconds: number;
  body: string | Buffer;
  secrets: string[];
}): Record<(typeof STANDARD_WEBHOOKS_HEADERS)[number], string> {
  const t = String(opts.timestampSeconds);
  const signatures = opts.secrets.map((secret) => signatureOf(secret, opts.msgId, t, opts.body));
  return { 'webhook-id': opts.msgId, 'webhook-timestamp': t, 'webhook-signature': signatures.join(' ') };
}

/** The three Standard Webhooks headers beside the project's own, when the project enables them. */
export const standardWebhooksScheme: SignatureScheme<'standard_webhooks'> = {
  name: 'standard_webhooks',
  appliesTo: ({ config }) => config.standard_webhooks,
  headerNames: () => [...STANDARD_WEBHOOKS_HEADERS],
  sign: ({ body, secrets, msgId, timestampSeconds }) =>
    signStandardWebhooks({ msgId, timestampSeconds, body, secrets }),
  verify: ({ body, headers, secrets, nowSeconds }) => {
    const msgId = headers['webhook-id'];
    const t = headers['webhook-timestamp'];
    if (!msgId || t === undefined || !withinReplayWindow(t, nowSeconds)) return false;
    const received = (headers['webhook-signature'] ?? '').split(' ');
    return secrets.some((secret) => {
      const expected = signatureOf(secret, msgId, t, body);
      return received.some((sig) => safeEqual(expected, sig));
    });
  },
  docs: {
    heading: 'Standard Webhooks mode',
    verifiers: {
      node: 'function verifyStandardWebhooks(',
      python: 'def verify_standard_webhooks(',
      go: 'func VerifyStandardWebhooks(',
    },
  },
};
