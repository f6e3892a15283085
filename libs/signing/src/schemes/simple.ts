import { safeEqual } from '@hookrail/domain';
import { signatureVersions, type SignatureConfig, type SignatureVersion } from '@hookrail/api-contract';
import { hmac } from './hmac';
import type { SignatureScheme } from './scheme';

/** Simple scheme: HMAC of the exact body bytes with one secret. */
export function signSimple(body: string | Buffer, secret: string, version: SignatureVersion): string {
  return hmac(version.hash, version.encoding, secret, body);
}

/** Simple signatures use the newest (last) configured version. */
function newestVersion(config: SignatureConfig): SignatureVersion {
  const versions = signatureVersions(config);
  return versions[versions.length - 1];
}

/** Convoy-style single header, for endpoints without `advanced_signatures`. */
export const simpleScheme: SignatureScheme<'simple'> = {
  name: 'simple',
  appliesTo: ({ advanced }) => !advanced,
  headerNames: (config) => [config.header],
  // One signature, with the newest valid secret.
  sign: ({ body, secrets, config }) => ({
    [config.header]: signSimple(body, secrets[secrets.length - 1], newestVersion(config)),
  }),
  verify: ({ body, headers, secrets, config }) => {
    const received = headers[config.header.toLowerCase()];
    const version = newestVersion(config);
    return (
      received !== undefined &&
      secrets.some((secret) => safeEqual(signSimple(body, secret, version), received))
    );
  },
  docs: {
    heading: 'Simple scheme (the default)',
    verifiers: { node: 'function verifySimple(', python: 'def verify_simple(', go: 'func VerifySimple(' },
  },
};
