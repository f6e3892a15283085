import { createHmac } from 'node:crypto';

export type SignatureHash = 'SHA256' | 'SHA512';
export type SignatureEncoding = 'hex' | 'base64';

/** One configured signature version (project `signature.versions[]`). */
export interface SignatureVersion {
  hash: SignatureHash;
  encoding: SignatureEncoding;
}

export function hmac(
  hash: SignatureHash,
  encoding: SignatureEncoding,
  key: string | Buffer,
  ...parts: (string | Buffer)[]
): string {
  const mac = createHmac(hash === 'SHA512' ? 'sha512' : 'sha256', key);
  for (const p of parts) mac.update(p);
  return mac.digest(encoding);
}
