import { hmac, type SignatureVersion } from './hmac';

/**
 * Advanced scheme: `t=<unix seconds>,v1=<sig>[,v1=<sig>...][,v2=...]`. Each sig is the HMAC of
 * "<t>,<body>" with one valid secret; `vN` is the N-th configured signature version (1-based), and
 * every valid secret signs for every version, so receivers keep verifying during a secret rollover.
 */
export function signAdvanced(opts: {
  body: string | Buffer;
  secrets: string[];
  versions: SignatureVersion[];
  timestampSeconds: number;
}): string {
  const t = String(opts.timestampSeconds);
  const parts = [`t=${t}`];
  opts.versions.forEach((version, i) => {
    for (const secret of opts.secrets) {
      parts.push(`v${i + 1}=${hmac(version.hash, version.encoding, secret, t, ',', opts.body)}`);
    }
  });
  return parts.join(',');
}
