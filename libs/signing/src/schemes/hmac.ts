import { createHmac } from 'node:crypto';
import type { SignatureEncoding, SignatureHash } from '@hookrail/api-contract';

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
