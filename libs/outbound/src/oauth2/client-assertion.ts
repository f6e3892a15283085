import { SUPPORTED_ALGORITHMS } from '@hookrail/api-contract';
import { importJWK, SignJWT, type JWK } from 'jose';
import { randomUUID } from 'node:crypto';
import type { OAuth2Config } from './oauth2.types';

/** Lifetime of a client assertion: short, it is used once. */
const ASSERTION_TTL_SECONDS = 300;

/**
 * RFC 7523 client assertion: iss and sub default to the client id, aud to the token URL; a fresh
 * jti every time so the server can reject replays.
 */
export async function buildClientAssertion(config: OAuth2Config, nowMs = Date.now()): Promise<string> {
  const alg = config.signing_algorithm ?? '';
  if (!(SUPPORTED_ALGORITHMS as readonly string[]).includes(alg)) {
    throw new Error(`unsupported signing_algorithm "${alg}"`);
  }
  if (!config.signing_key) throw new Error('signing_key is required for client_assertion');
  const key = await importJWK(config.signing_key as JWK, alg);
  const iat = Math.floor(nowMs / 1000);
  return new SignJWT({})
    .setProtectedHeader({
      alg,
      typ: 'JWT',
      ...(config.signing_key.kid ? { kid: config.signing_key.kid } : {}),
    })
    .setIssuer(config.issuer || config.client_id)
    .setSubject(config.subject || config.client_id)
    .setAudience(config.audience || config.url)
    .setJti(randomUUID())
    .setIssuedAt(iat)
    .setExpirationTime(iat + ASSERTION_TTL_SECONDS)
    .sign(key);
}
