import { createCipheriv, createDecipheriv, hash, randomBytes, timingSafeEqual } from 'node:crypto';

const PREFIX = 'enc:v1:';

/**
 * Encrypts credentials that must be read back (endpoint signing secrets, endpoint auth, broker
 * passwords) with AES-256-GCM under the instance key (HOOKRAIL_ENCRYPTION_KEY). Without a key,
 * values are stored as given and a warning is logged at start-up: acceptable for local runs only.
 */
export class SecretBox {
  private readonly key?: Buffer;

  constructor(keyMaterial?: string) {
    if (keyMaterial) this.key = hash('sha256', keyMaterial, 'buffer');
  }

  get encrypting(): boolean {
    return this.key !== undefined;
  }

  seal(plain: string): string {
    if (!this.key) return plain;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  }

  open(stored: string): string {
    if (!stored.startsWith(PREFIX)) return stored;
    if (!this.key) throw new Error('a sealed secret was found but HOOKRAIL_ENCRYPTION_KEY is not set');
    const buf = Buffer.from(stored.slice(PREFIX.length), 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.key, buf.subarray(0, 12));
    decipher.setAuthTag(buf.subarray(12, 28));
    return Buffer.concat([decipher.update(buf.subarray(28)), decipher.final()]).toString('utf8');
  }
}

/** SHA-256 hex of a credential, for lookups of high-entropy secrets (API keys, portal tokens). */
export function hashSecret(secret: string): string {
  // One-shot: a third of createHash's cost, and the gateway hashes a key on every request.
  return hash('sha256', secret, 'hex');
}

/** Constant-time comparison of two strings (different lengths compare unequal without leaking where). */
export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  if (ab.length !== bb.length) {
    timingSafeEqual(ab, ab);
    return false;
  }
  return timingSafeEqual(ab, bb);
}

export function randomToken(bytes = 24): string {
  return randomBytes(bytes).toString('base64url');
}
