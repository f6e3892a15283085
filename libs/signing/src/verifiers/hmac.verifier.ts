import { safeEqual } from '@hookrail/domain';
import { type SignatureEncoding, type SignatureHash } from '@hookrail/api-contract';
import { hmac } from '../schemes';
import type { VerifiableRequest, Verification } from './types';

export interface HmacCheck {
  header: string;
  hash: SignatureHash;
  encoding: SignatureEncoding;
  secret: string;
  /** Text before the signature in the header value, e.g. `sha256=` (GitHub, Twitter). */
  prefix?: string;
}

/** HMAC over the raw body bytes, compared in constant time. */
export function verifyHmac(check: HmacCheck, req: VerifiableRequest): Verification {
  const received = req.headers[check.header.toLowerCase()]?.trim();
  if (!received) return { ok: false, reason: `missing ${check.header} header` };
  const prefix = check.prefix ?? '';
  const expected = prefix + hmac(check.hash, check.encoding, check.secret, req.rawBody);
  // Hex is case-insensitive on the wire; base64 is not.
  const normalise = (s: string) => (check.encoding === 'hex' ? s.toLowerCase() : s);
  return safeEqual(normalise(received), normalise(expected))
    ? { ok: true }
    : { ok: false, reason: 'signature mismatch' };
}
