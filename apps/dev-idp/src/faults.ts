import type { IncomingMessage, ServerResponse } from 'node:http';
import { decodeJwt, decodeProtectedHeader, SignJWT, type CryptoKey } from 'jose';

/**
 * What the tests make the provider do wrong, to see the gateway refuse it: an ID token whose
 * payload was changed after signing, one that expired, one signed for another issuer.
 */
export const FAULTS = ['none', 'tampered', 'expired', 'other-issuer'] as const;
export type Fault = (typeof FAULTS)[number];

async function faulty(idToken: string, fault: Fault, key: CryptoKey): Promise<string> {
  const [header, , signature] = idToken.split('.');
  const claims = decodeJwt(idToken);
  if (fault === 'tampered') {
    // someone else, made an owner, under the original signature
    const changed = {
      ...claims,
      sub: 'user-mallory',
      email: 'mallory@example.test',
      groups: ['hookrail-owners'],
    };
    return [header, Buffer.from(JSON.stringify(changed)).toString('base64url'), signature].join('.');
  }
  const now = Math.floor(Date.now() / 1000);
  const resigned =
    fault === 'expired'
      ? { ...claims, iat: now - 3600, exp: now - 1800 }
      : { ...claims, iss: 'https://idp.elsewhere.test' };
  return new SignJWT(resigned)
    .setProtectedHeader(decodeProtectedHeader(idToken) as { alg: string })
    .sign(key);
}

/**
 * Rewrites the token endpoint's answer while a fault is set: the body oidc-provider ends the
 * response with is held back, its `id_token` spoiled, and sent instead.
 */
export function withTokenFault(
  req: IncomingMessage,
  res: ServerResponse,
  fault: () => Fault,
  key: CryptoKey,
): void {
  if (fault() === 'none' || !req.url?.startsWith('/token')) return;
  const end = res.end.bind(res) as (body?: string) => ServerResponse;
  (res as { end: unknown }).end = (body?: Buffer | string) => {
    const tokens = JSON.parse(String(body ?? '{}')) as { id_token?: string };
    if (!tokens.id_token) return end(String(body ?? ''));
    void faulty(tokens.id_token, fault(), key).then((idToken) => {
      const text = JSON.stringify({ ...tokens, id_token: idToken });
      res.setHeader('content-length', Buffer.byteLength(text));
      end(text);
    });
    return res;
  };
}
