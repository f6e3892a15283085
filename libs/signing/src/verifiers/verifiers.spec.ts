import { createHmac } from 'node:crypto';
import { twitterCrcResponse } from './providers';
import type { VerifiableRequest } from './types';
import { verifyRequest } from './verify-request';

const body = Buffer.from('{"id":1,"text":"héllo"}');
const req = (headers: Record<string, string>): VerifiableRequest => ({ headers, rawBody: body });
const plain = (s: string) => s;
const mac = (alg: string, key: string, data: Buffer | string, enc: 'hex' | 'base64') =>
  createHmac(alg, key).update(data).digest(enc);

describe('verifyRequest', () => {
  it('accepts everything without a verifier or with noop', () => {
    expect(verifyRequest({}, req({}), plain)).toEqual({ ok: true });
    expect(verifyRequest({ verifier: { type: 'noop' } }, req({}), plain)).toEqual({ ok: true });
  });

  describe('hmac', () => {
    const source = (hash: 'SHA256' | 'SHA512', encoding: 'hex' | 'base64') => ({
      verifier: { type: 'hmac' as const, hmac: { header: 'X-Sig', hash, encoding, secret: 's3cret' } },
    });

    it.each([
      ['SHA256', 'hex', 'sha256'],
      ['SHA256', 'base64', 'sha256'],
      ['SHA512', 'hex', 'sha512'],
      ['SHA512', 'base64', 'sha512'],
    ] as const)('accepts a correct %s %s signature over the raw bytes', (hash, enc, alg) => {
      const sig = mac(alg, 's3cret', body, enc);
      expect(verifyRequest(source(hash, enc), req({ 'x-sig': sig }), plain)).toEqual({ ok: true });
    });

    it('rejects a wrong, truncated or missing signature', () => {
      const sig = mac('sha256', 's3cret', body, 'hex');
      expect(verifyRequest(source('SHA256', 'hex'), req({ 'x-sig': sig.slice(1) }), plain).ok).toBe(false);
      expect(
        verifyRequest(source('SHA256', 'hex'), req({ 'x-sig': mac('sha256', 'other', body, 'hex') }), plain)
          .ok,
      ).toBe(false);
      expect(verifyRequest(source('SHA256', 'hex'), req({}), plain)).toEqual({
        ok: false,
        reason: 'missing X-Sig header',
      });
    });

    it('rejects a signature over a re-serialised body', () => {
      const signed = mac('sha256', 's3cret', '{"id": 1}', 'hex');
      const sent: VerifiableRequest = { headers: { 'x-sig': signed }, rawBody: Buffer.from('{"id":1}') };
      expect(verifyRequest(source('SHA256', 'hex'), sent, plain)).toEqual({
        ok: false,
        reason: 'signature mismatch',
      });
    });

    it('accepts upper-case hex and opens sealed secrets', () => {
      const sig = mac('sha256', 's3cret', body, 'hex').toUpperCase();
      const sealed = { verifier: { type: 'hmac' as const, hmac: { header: 'X-Sig', secret: 'sealed:x' } } };
      expect(verifyRequest(sealed, req({ 'x-sig': sig }), () => 's3cret')).toEqual({ ok: true });
    });

    it('rejects everything when the secret is missing', () => {
      const broken = { verifier: { type: 'hmac' as const } };
      expect(verifyRequest(broken, req({}), plain).ok).toBe(false);
    });
  });

  describe('basic_auth', () => {
    const source = {
      verifier: { type: 'basic_auth' as const, basic_auth: { username: 'u', password: 'p:w' } },
    };
    const auth = (s: string) => `Basic ${Buffer.from(s).toString('base64')}`;

    it('accepts the configured credentials (passwords may contain colons)', () => {
      expect(verifyRequest(source, req({ authorization: auth('u:p:w') }), plain)).toEqual({ ok: true });
    });

    it('rejects wrong, malformed or missing credentials', () => {
      expect(verifyRequest(source, req({ authorization: auth('u:x') }), plain).ok).toBe(false);
      expect(verifyRequest(source, req({ authorization: auth('nocolon') }), plain).ok).toBe(false);
      expect(verifyRequest(source, req({ authorization: 'Bearer x' }), plain).ok).toBe(false);
      expect(verifyRequest(source, req({}), plain).ok).toBe(false);
    });
  });

  describe('api_key', () => {
    const source = {
      verifier: { type: 'api_key' as const, api_key: { header_name: 'X-Api-Key', header_value: 'k1' } },
    };
    it('compares the configured header', () => {
      expect(verifyRequest(source, req({ 'x-api-key': 'k1' }), plain)).toEqual({ ok: true });
      expect(verifyRequest(source, req({ 'x-api-key': 'k2' }), plain).ok).toBe(false);
      expect(verifyRequest(source, req({}), plain).ok).toBe(false);
    });
  });

  describe('providers', () => {
    const secretOnly = (provider: string) => ({
      provider,
      verifier: { type: 'hmac' as const, hmac: { secret: 'gh' } },
    });

    it('verifies GitHub X-Hub-Signature-256: sha256=<hex>', () => {
      const sig = `sha256=${mac('sha256', 'gh', body, 'hex')}`;
      expect(verifyRequest(secretOnly('github'), req({ 'x-hub-signature-256': sig }), plain)).toEqual({
        ok: true,
      });
      expect(
        verifyRequest(secretOnly('github'), req({ 'x-hub-signature-256': sig.slice(7) }), plain).ok,
      ).toBe(false);
    });

    it('verifies Shopify X-Shopify-Hmac-SHA256: <base64>', () => {
      const sig = mac('sha256', 'gh', body, 'base64');
      expect(verifyRequest(secretOnly('shopify'), req({ 'x-shopify-hmac-sha256': sig }), plain)).toEqual({
        ok: true,
      });
    });

    it('verifies Twitter X-Twitter-Webhooks-Signature: sha256=<base64>', () => {
      const sig = `sha256=${mac('sha256', 'gh', body, 'base64')}`;
      expect(
        verifyRequest(secretOnly('twitter'), req({ 'x-twitter-webhooks-signature': sig }), plain),
      ).toEqual({ ok: true });
    });

    it('rejects a provider source without a secret', () => {
      expect(verifyRequest({ provider: 'github' }, req({}), plain).ok).toBe(false);
    });
  });

  it('answers the Twitter CRC challenge with sha256=<base64 HMAC>', () => {
    // Vector computed independently: HMAC-SHA256("secret", "token") in base64.
    const expected = createHmac('sha256', 'secret').update('token').digest('base64');
    expect(twitterCrcResponse('secret', 'token')).toEqual({ response_token: `sha256=${expected}` });
    expect(expected).toBe('6UERDj0r/oJiHw4+FDRzDXMF0QbF9oyHFl0LJ6RhGko=');
  });
});
