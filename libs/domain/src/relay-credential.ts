import { createHmac } from 'node:crypto';

/** The header the dispatcher's relay calls carry their credential in. */
export const RELAY_CREDENTIAL_HEADER = 'x-hookrail-relay-credential';

/**
 * The credential of the gateway's internal relay (`hookrail listen`, docs/cli.md), derived from
 * the instance's encryption key, else its admin key: every service of a deployment has both, so
 * nothing new is shared, and the credential says nothing about either key. Without either key
 * there is none and the relay is off (a public gateway must not accept a credential anyone can
 * compute).
 */
export function relayCredential(security: { encryptionKey?: string; adminKey?: string }): string | undefined {
  const key = security.encryptionKey ?? security.adminKey;
  if (!key) return undefined;
  return createHmac('sha256', key).update('hookrail-cli-relay\0v1').digest('base64url');
}
