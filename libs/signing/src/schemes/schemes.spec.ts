import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { hmac } from './hmac';
import { advancedScheme, signAdvanced } from './advanced';
import { signSimple } from './simple';
import {
  generateStandardWebhooksSecret,
  signStandardWebhooks,
  standardWebhooksKey,
  standardWebhooksScheme,
} from './standard-webhooks';
import { activeSecrets } from './secrets';
import { signatureHeaders } from './signature-headers';

describe('HMAC signature schemes', () => {
  // RFC 4231 test case 2.
  it('computes RFC 4231 vectors for SHA256 and SHA512 in hex and base64', () => {
    const data = 'what do ya want for nothing?';
    expect(hmac('SHA256', 'hex', 'Jefe', data)).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
    expect(hmac('SHA512', 'hex', 'Jefe', data)).toBe(
      '164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737',
    );
    expect(hmac('SHA256', 'base64', 'Jefe', data)).toBe(
      Buffer.from('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843', 'hex').toString(
        'base64',
      ),
    );
  });

  it('simple: signs the exact body bytes', () => {
    const body = Buffer.from('{"a":1,"é":"ü"}');
    expect(signSimple(body, 'k', { hash: 'SHA256', encoding: 'hex' })).toBe(
      createHmac('sha256', 'k').update(body).digest('hex'),
    );
  });

  it('advanced: t=..., then one vN per secret for each configured version N over "<t>,<body>"', () => {
    const header = signAdvanced({
      body: '{"x":1}',
      secrets: ['old', 'new'],
      versions: [
        { hash: 'SHA256', encoding: 'hex' },
        { hash: 'SHA512', encoding: 'base64' },
      ],
      timestampSeconds: 1700000000,
    });
    const h = (alg: string, enc: 'hex' | 'base64', k: string) =>
      createHmac(alg, k).update('1700000000,{"x":1}').digest(enc);
    expect(header).toBe(
      [
        't=1700000000',
        `v1=${h('sha256', 'hex', 'old')}`,
        `v1=${h('sha256', 'hex', 'new')}`,
        `v2=${h('sha512', 'base64', 'old')}`,
        `v2=${h('sha512', 'base64', 'new')}`,
      ].join(','),
    );
  });

  it('Standard Webhooks: matches the specification example vector', () => {
    const headers = signStandardWebhooks({
      msgId: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      timestampSeconds: 1614265330,
      body: '{"test": 2432232314}',
      secrets: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
    });
    expect(headers['webhook-signature']).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('Standard Webhooks: the reference verifier accepts every secret of a rollover; non-whsec secrets are raw bytes', () => {
    const now = Math.floor(Date.now() / 1000);
    const body = '{"event":"invoice.paid","n":1}';
    const oldSecret = 'whsec_' + Buffer.from('old-key-bytes-0123456789').toString('base64');
    const plain = 'plain-secret-value';
    const headers = signStandardWebhooks({
      msgId: 'dlv_1',
      timestampSeconds: now,
      body,
      secrets: [oldSecret, plain],
    });
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(oldSecret).verify(body, headers)).toEqual(JSON.parse(body));
    // The reference library takes raw key bytes with format: 'raw'.
    expect(new Webhook(standardWebhooksKey(plain), { format: 'raw' }).verify(body, headers)).toEqual(
      JSON.parse(body),
    );
    expect(() =>
      new Webhook(standardWebhooksKey('other'), { format: 'raw' }).verify(body, headers),
    ).toThrow();
    expect(() => new Webhook(oldSecret).verify(body + ' ', headers)).toThrow();
  });

  it('Standard Webhooks: a generated secret is whsec_ + base64 of 32 random bytes, taken as is by new Webhook(secret)', () => {
    const secret = generateStandardWebhooksSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(standardWebhooksKey(secret)).toHaveLength(32);
    expect(generateStandardWebhooksSecret()).not.toBe(secret);
    const body = '{"n":1}';
    const headers = signStandardWebhooks({
      msgId: 'dlv_2',
      timestampSeconds: Math.floor(Date.now() / 1000),
      body,
      secrets: [secret],
    });
    expect(new Webhook(secret).verify(body, headers)).toEqual({ n: 1 });
  });

  it.each([advancedScheme, standardWebhooksScheme])(
    '$name: verify accepts any secret of a rollover and rejects a timestamp outside the replay window',
    (scheme) => {
      const config = { header: 'X-Sig', versions: [], standard_webhooks: true };
      const t = 1700000000;
      const signed = scheme.sign({
        body: 'b',
        secrets: ['old', 'new'],
        config,
        msgId: 'd1',
        timestampSeconds: t,
      });
      const headers = Object.fromEntries(Object.entries(signed).map(([k, v]) => [k.toLowerCase(), v]));
      const verify = (secret: string, nowSeconds: number) =>
        scheme.verify({ body: 'b', headers, secrets: [secret], config, nowSeconds });
      expect([verify('old', t), verify('new', t + 300), verify('new', t - 300)]).toEqual([true, true, true]);
      expect([verify('new', t + 301), verify('new', t - 301)]).toEqual([false, false]);
    },
  );

  it('activeSecrets: drops expired and deleted secrets and orders oldest first', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const s = (value: string, created: string, expires: string | null, deleted: string | null = null) => ({
      value,
      created_at: new Date(created),
      expires_at: expires ? new Date(expires) : null,
      deleted_at: deleted ? new Date(deleted) : null,
    });
    const result = activeSecrets(
      [
        s('newest', '2025-12-31T00:00:00Z', null),
        s('expired', '2025-01-01T00:00:00Z', '2025-12-31T23:59:59Z'),
        s('expiring', '2025-06-01T00:00:00Z', '2026-01-01T00:00:01Z'),
        s('deleted', '2025-07-01T00:00:00Z', null, '2025-08-01T00:00:00Z'),
      ],
      now,
    );
    expect(result.map((x) => x.value)).toEqual(['expiring', 'newest']);
  });

  describe('signatureHeaders', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const secrets = [
      { value: 'old', created_at: new Date('2025-01-01'), expires_at: new Date('2026-01-02') },
      { value: 'new', created_at: new Date('2025-12-01'), expires_at: null },
    ];
    const config = {
      header: 'X-Hookrail-Signature',
      versions: [{ hash: 'SHA256' as const, encoding: 'hex' as const }],
      standard_webhooks: false,
    };

    it('simple uses the newest valid secret only', () => {
      const r = signatureHeaders({ body: 'b', secrets, advanced: false, config, msgId: 'd1', now });
      expect(r).toEqual({
        kind: 'signed',
        headers: { 'X-Hookrail-Signature': createHmac('sha256', 'new').update('b').digest('hex') },
      });
    });

    it('advanced signs with both secrets during a rollover, and only the new one after the old expires', () => {
      const during = signatureHeaders({ body: 'b', secrets, advanced: true, config, msgId: 'd1', now });
      expect(during.headers['X-Hookrail-Signature'].match(/v1=/g)).toHaveLength(2);
      const after = signatureHeaders({
        body: 'b',
        secrets,
        advanced: true,
        config,
        msgId: 'd1',
        now: new Date('2026-01-03'),
      });
      expect(after.headers['X-Hookrail-Signature'].match(/v1=/g)).toHaveLength(1);
    });

    it('adds the Standard Webhooks headers when the project enables them', () => {
      const r = signatureHeaders({
        body: 'b',
        secrets,
        advanced: false,
        config: { ...config, standard_webhooks: true },
        msgId: 'd1',
        now,
      });
      expect(Object.keys(r.headers).sort()).toEqual([
        'X-Hookrail-Signature',
        'webhook-id',
        'webhook-signature',
        'webhook-timestamp',
      ]);
      expect(r.headers['webhook-id']).toBe('d1');
      expect(r.headers['webhook-timestamp']).toBe(String(now.getTime() / 1000));
    });

    it('signs nothing when no secret is valid', () => {
      expect(
        signatureHeaders({ body: 'b', secrets: [], advanced: false, config, msgId: 'd', now }).kind,
      ).toBe('no_secret');
    });
  });
});
