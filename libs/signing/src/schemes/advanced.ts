import { safeEqual } from '@hookrail/domain';
import { signatureVersions, type SignatureVersion } from '@hookrail/api-contract';
import { hmac } from './hmac';
import { withinReplayWindow } from './replay-window';
import type { SignatureScheme } from './scheme';

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

/** The header's `t` and its signatures by name (`v1`, `v2`, ...). */
function parseAdvanced(header: string): { t?: string; signatures: Map<string, string[]> } {
  let t: string | undefined;
  const signatures = new Map<string, string[]>();
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    const name = part.slice(0, eq);
    const value = part.slice(eq + 1);
    if (name === 't') t = value;
    else signatures.set(name, [...(signatures.get(name) ?? []), value]);
  }
  return { t, signatures };
}

/** Timestamped, one signature per valid secret and version, for endpoints with `advanced_signatures`. */
export const advancedScheme: SignatureScheme<'advanced'> = {
  name: 'advanced',
  appliesTo: ({ advanced }) => advanced,
  headerNames: (config) => [config.header],
  sign: ({ body, secrets, config, timestampSeconds }) => ({
    [config.header]: signAdvanced({ body, secrets, versions: signatureVersions(config), timestampSeconds }),
  }),
  verify: ({ body, headers, secrets, config, nowSeconds }) => {
    const { t, signatures } = parseAdvanced(headers[config.header.toLowerCase()] ?? '');
    if (t === undefined || !withinReplayWindow(t, nowSeconds)) return false;
    return signatureVersions(config).some((version, i) => {
      const received = signatures.get(`v${i + 1}`) ?? [];
      return secrets.some((secret) => {
        const expected = hmac(version.hash, version.encoding, secret, t, ',', body);
        return received.some((sig) => safeEqual(expected, sig));
      });
    });
  },
  docs: {
    heading: 'Advanced scheme (timestamped, several signatures)',
    verifiers: {
      node: 'function verifyAdvanced(',
      python: 'def verify_advanced(',
      go: 'func VerifyAdvanced(',
    },
  },
};
