import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * A receiver's check as convoy-go's `Webhook.VerifyPayload` does it, written from its behaviour:
 * - a header without `,` is a simple signature: HMAC(secret, body) in the configured encoding;
 * - otherwise it is advanced: `t=<unix seconds>` and any number of `v…=<signature>` pairs, the
 *   signed content is `<t>,<body>`, a timestamp older than the tolerance fails, and any pair that
 *   decodes (in the configured encoding) and matches verifies;
 * - the key is the secret's bytes as written; decoding is Go's strict hex / standard base64.
 */
export interface ConvoyVerifierOptions {
  secret: string;
  hash?: 'SHA256' | 'SHA512';
  encoding?: 'hex' | 'base64';
  toleranceSeconds?: number;
}

export function convoyVerify(
  body: Buffer | string,
  header: string | undefined,
  opts: ConvoyVerifierOptions,
): void {
  const hash = opts.hash ?? 'SHA256';
  const encoding = opts.encoding ?? 'hex';
  const tolerance = opts.toleranceSeconds ?? 300;
  if (!header) throw new Error('webhook has invalid header');
  const pairs = header.split(',');
  let signatures: Buffer[] = [];
  let timestamp: number | undefined;
  if (pairs.length > 1) {
    for (const pair of pairs) {
      const eq = pair.indexOf('=');
      if (eq < 0) throw new Error('webhook has invalid header');
      const [name, value] = [pair.slice(0, eq), pair.slice(eq + 1)];
      if (name === 't') {
        if (!/^-?\d+$/.test(value)) throw new Error('webhook has invalid header');
        timestamp = Number(value);
        continue;
      }
      if (name.includes('v')) {
        const sig = decode(value, encoding);
        if (sig) signatures.push(sig);
      }
    }
    if (Date.now() / 1000 - (timestamp ?? 0) > tolerance) throw new Error('timestamp has expired');
  } else {
    const sig = decode(header, encoding);
    if (!sig) throw new Error(`invalid ${encoding} signature`);
    signatures = [sig];
  }
  if (signatures.length === 0) throw new Error('webhook has no valid signature');
  const mac = createHmac(hash === 'SHA256' ? 'sha256' : 'sha512', Buffer.from(opts.secret, 'utf8'));
  if (timestamp !== undefined) mac.update(`${timestamp},`);
  mac.update(body);
  const expected = mac.digest();
  if (!signatures.some((s) => s.length === expected.length && timingSafeEqual(s, expected)))
    throw new Error('webhook has no valid signature');
}

/** Go's hex.DecodeString and base64.StdEncoding.DecodeString: strict, or nothing. */
function decode(value: string, encoding: 'hex' | 'base64'): Buffer | undefined {
  if (encoding === 'hex') return /^(?:[0-9a-fA-F]{2})*$/.test(value) ? Buffer.from(value, 'hex') : undefined;
  return value.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(value)
    ? Buffer.from(value, 'base64')
    : undefined;
}
