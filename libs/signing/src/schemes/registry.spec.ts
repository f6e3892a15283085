import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { SignatureConfig } from '@hookrail/api-contract';
import { SIGNATURE_SCHEMES, signatureHeaderNames } from './registry';

const doc = readFileSync(path.resolve(__dirname, '../../../../docs/verifying-webhooks.md'), 'utf8');

const config: SignatureConfig = {
  header: 'X-Test-Signature',
  versions: [
    { hash: 'SHA256', encoding: 'hex' },
    { hash: 'SHA512', encoding: 'base64' },
  ],
  standard_webhooks: true,
};
const body = Buffer.from('{"amount":42,"note":"café ☕"}');
const now = 1767225600;
const lowerCased = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));

describe('the signature scheme registry', () => {
  it('names each scheme once', () => {
    const names = SIGNATURE_SCHEMES.map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('reserves every header a scheme writes, lower-cased', () => {
    const names = [...signatureHeaderNames(config)];
    expect(names).toEqual(
      expect.arrayContaining(['x-test-signature', 'webhook-id', 'webhook-timestamp', 'webhook-signature']),
    );
    expect(names.every((h) => h === h.toLowerCase())).toBe(true);
  });

  describe.each(SIGNATURE_SCHEMES.map((s) => [s.name, s] as const))('%s', (_name, scheme) => {
    // During a rollover: every scheme signs with the newest secret, some with the old one too.
    const headers = lowerCased(
      scheme.sign({ body, secrets: ['old', 'new'], config, msgId: 'dlv_1', timestampSeconds: now }),
    );
    const verify = (over: { body?: Buffer; secrets?: string[]; nowSeconds?: number }) =>
      scheme.verify({ body, headers, secrets: ['new'], config, nowSeconds: now, ...over });

    it('writes exactly the headers it declares', () => {
      expect(Object.keys(headers).sort()).toEqual(
        scheme
          .headerNames(config)
          .map((h) => h.toLowerCase())
          .sort(),
      );
    });

    it('verifies what it signs', () => {
      expect(verify({})).toBe(true);
      expect(verify({ nowSeconds: now + 60 })).toBe(true);
    });

    it('rejects a tampered body, an extra byte and a wrong secret', () => {
      const tampered = Buffer.from(body);
      tampered[tampered.length - 2] ^= 1;
      expect(verify({ body: tampered })).toBe(false);
      expect(verify({ body: Buffer.concat([body, Buffer.from('\n')]) })).toBe(false);
      expect(verify({ secrets: ['not-the-secret'] })).toBe(false);
    });

    it('rejects a request without its headers', () => {
      expect(scheme.verify({ body, headers: {}, secrets: ['new'], config, nowSeconds: now })).toBe(false);
    });

    it('is documented: its section and its verifier in every language of docs/verifying-webhooks.md', () => {
      expect(doc).toContain(`\n### ${scheme.docs.heading}\n`);
      for (const verifier of Object.values(scheme.docs.verifiers)) expect(doc).toContain(verifier);
    });
  });
});
