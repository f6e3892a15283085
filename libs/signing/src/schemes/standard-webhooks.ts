import { createHmac, randomBytes } from 'node:crypto';

const WHSEC = 'whsec_';

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

/**
 * Standard Webhooks (https://www.standardwebhooks.com): `webhook-signature` is a space-separated
 * list of `v1,<base64 HMAC-SHA256(key, "<id>.<t>.<body>")>`, one per valid secret.
 */
export function signStandardWebhooks(opts: {
  msgId: string;
  timestampSeconds: number;
  body: string | Buffer;
  secrets: string[];
}): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  const t = String(opts.timestampSeconds);
  const signatures = opts.secrets.map((secret) => {
    const mac = createHmac('sha256', standardWebhooksKey(secret));
    mac.update(`${opts.msgId}.${t}.`);
    mac.update(opts.body);
    return `v1,${mac.digest('base64')}`;
  });
  return { 'webhook-id': opts.msgId, 'webhook-timestamp': t, 'webhook-signature': signatures.join(' ') };
}
