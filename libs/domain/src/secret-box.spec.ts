import { SecretBox, hashSecret, safeEqual } from './secret-box';

describe('SecretBox', () => {
  it('round-trips and never stores the plain text', () => {
    const box = new SecretBox('instance-key');
    const sealed = box.seal('whsec_abc');
    expect(sealed).not.toContain('whsec_abc');
    expect(sealed.startsWith('enc:v1:')).toBe(true);
    expect(box.open(sealed)).toBe('whsec_abc');
  });

  it('opens what an earlier version sealed under the same instance key', () => {
    const sealedBefore = 'enc:v1:e5UuMne_92gjONpBrXnu2x_KGonr5OvC4ELbokcpeaVHpHg-O-f0aeg';
    expect(new SecretBox('instance-key').open(sealedBefore)).toBe('whsec_earlier');
  });

  it('uses a fresh nonce every time', () => {
    const box = new SecretBox('k');
    expect(box.seal('same')).not.toBe(box.seal('same'));
  });

  it('refuses to open with the wrong key (authenticated encryption)', () => {
    const sealed = new SecretBox('right').seal('secret');
    expect(() => new SecretBox('wrong').open(sealed)).toThrow();
  });

  it('passes values through when no key is configured', () => {
    expect(new SecretBox().seal('plain')).toBe('plain');
    expect(new SecretBox().open('plain')).toBe('plain');
    expect(() => new SecretBox().open(new SecretBox('k').seal('x'))).toThrow(/HOOKRAIL_ENCRYPTION_KEY/);
  });
});

describe('safeEqual / hashSecret', () => {
  it('compares exactly', () => {
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abd')).toBe(false);
    expect(safeEqual('abc', 'abcd')).toBe(false);
  });
  it('hashes deterministically to hex', () => {
    expect(hashSecret('k')).toMatch(/^[0-9a-f]{64}$/);
    expect(hashSecret('k')).toBe(hashSecret('k'));
  });
  it('is SHA-256, so keys hashed by an earlier version still match', () => {
    expect(hashSecret('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
