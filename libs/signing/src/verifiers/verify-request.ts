import { safeEqual } from '@hookrail/domain';
import { verifyHmac } from './hmac.verifier';
import { isProvider, providerCheck } from './providers';
import type { OpenSecret, VerifiableRequest, VerifierConfig, Verification } from './types';

const DEFAULT_HMAC_HEADER = 'X-Hookrail-Signature';

/**
 * Verifies an ingest request against a source's verifier. A provider (github, shopify, twitter)
 * fixes header, hash, encoding and prefix; its secret is `verifier.hmac.secret`. A source with
 * neither verifier nor provider accepts every request (as `noop`). A configured verifier that is
 * missing its settings rejects everything rather than accepting unverified requests.
 */
export function verifyRequest(
  source: { provider?: string | null; verifier?: VerifierConfig | null },
  req: VerifiableRequest,
  open: OpenSecret,
): Verification {
  const v = source.verifier;
  if (isProvider(source.provider)) {
    if (!v?.hmac?.secret) return { ok: false, reason: `${source.provider} source has no secret` };
    return verifyHmac(providerCheck(source.provider, open(v.hmac.secret)), req);
  }
  if (!v) return { ok: true };
  switch (v.type) {
    case 'noop':
      return { ok: true };
    case 'hmac': {
      if (!v.hmac?.secret) return { ok: false, reason: 'hmac verifier has no secret' };
      const { header, hash, encoding, secret } = v.hmac;
      return verifyHmac(
        {
          header: header || DEFAULT_HMAC_HEADER,
          hash: hash ?? 'SHA256',
          encoding: encoding ?? 'hex',
          secret: open(secret),
        },
        req,
      );
    }
    case 'basic_auth':
      if (!v.basic_auth) return { ok: false, reason: 'basic_auth verifier has no credentials' };
      return verifyBasicAuth(v.basic_auth.username, open(v.basic_auth.password), req);
    case 'api_key': {
      if (!v.api_key) return { ok: false, reason: 'api_key verifier has no key' };
      const received = req.headers[v.api_key.header_name.toLowerCase()];
      if (received === undefined) return { ok: false, reason: `missing ${v.api_key.header_name} header` };
      return safeEqual(received, open(v.api_key.header_value))
        ? { ok: true }
        : { ok: false, reason: 'api key mismatch' };
    }
    default:
      return { ok: false, reason: `unknown verifier type ${String((v as { type: unknown }).type)}` };
  }
}

function verifyBasicAuth(username: string, password: string, req: VerifiableRequest): Verification {
  const match = /^Basic\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  if (!match) return { ok: false, reason: 'missing basic authorization' };
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return { ok: false, reason: 'malformed basic authorization' };
  // Both compared every time, so timing does not tell which part was wrong.
  const userOk = safeEqual(decoded.slice(0, colon), username);
  const passOk = safeEqual(decoded.slice(colon + 1), password);
  return userOk && passOk ? { ok: true } : { ok: false, reason: 'credentials mismatch' };
}
