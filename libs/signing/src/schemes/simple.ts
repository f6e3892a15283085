import { hmac, type SignatureVersion } from './hmac';

/** Simple scheme: HMAC of the exact body bytes with the newest valid secret. */
export function signSimple(body: string | Buffer, secret: string, version: SignatureVersion): string {
  return hmac(version.hash, version.encoding, secret, body);
}
