import { credentialKey } from './rate-limit';

describe('credentialKey', () => {
  it("is an API key's id, never its secret", () => {
    expect(credentialKey('Bearer hr_01JD8ZQ7X2Y3.secret-part')).toBe('hr_01JD8ZQ7X2Y3');
    expect(credentialKey('bearer hr_admin.test-admin-key')).toBe('hr_admin');
  });
  it('is a digest of any other token, from the header or the query', () => {
    const a = credentialKey('Bearer portal-token-1');
    expect(a).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(a).not.toContain('portal');
    expect(credentialKey(undefined, 'portal-token-1')).toBe(a);
    expect(credentialKey('Bearer portal-token-2')).not.toBe(a);
  });
  it('is null without a credential (the rule does not apply)', () => {
    expect(credentialKey(undefined)).toBeNull();
    expect(credentialKey('Basic abc')).toBeNull();
    expect(credentialKey(undefined, '')).toBeNull();
  });
});
