import { relayCredential } from './relay-credential';

describe('relayCredential', () => {
  it('is derived from the encryption key, else the admin key, and absent without either', () => {
    const a = relayCredential({ encryptionKey: 'k1', adminKey: 'admin' });
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(relayCredential({ encryptionKey: 'k1' })).toBe(a);
    expect(relayCredential({ encryptionKey: 'k2' })).not.toBe(a);
    expect(relayCredential({ adminKey: 'admin' })).not.toBe(a);
    expect(a).not.toContain('k1');
    expect(relayCredential({})).toBeUndefined();
  });
});
