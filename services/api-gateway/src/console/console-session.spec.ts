import { DomainError, asProjectId } from '@hookrail/domain';
import {
  checkCsrf,
  claimsPrincipal,
  csrfToken,
  principalClaims,
  readCookie,
  sessionSecret,
  signSession,
  verifySession,
} from './console-session';

const secret = sessionSecret('enc-key', 'admin-key');
const now = new Date('2026-01-01T12:00:00Z');
const PROJECT = asProjectId('01JBZ0000000000000000000PJ');

describe('console session tokens', () => {
  it('round-trips a project session and keeps its principal', () => {
    const claims = principalClaims({ kind: 'project', projectId: PROJECT, keyId: 'k1' }, now, 60_000);
    const check = verifySession(signSession(claims, secret), secret, now);
    expect(check).toEqual({ ok: true, claims });
    expect(claimsPrincipal(claims)).toEqual({ kind: 'project', projectId: PROJECT, keyId: 'k1' });
  });

  it('refuses a token after its expiry, and tokens signed with another secret or altered', () => {
    const token = signSession(principalClaims({ kind: 'admin' }, now, 60_000), secret);
    expect(verifySession(token, secret, new Date(now.getTime() + 60_000))).toEqual({
      ok: false,
      reason: 'expired',
    });
    // Rotating the admin key (or the encryption key) ends every session.
    expect(verifySession(token, sessionSecret('enc-key', 'new-admin-key'), now).ok).toBe(false);
    const [v, body, sig] = token.split('.');
    const altered = Buffer.from(JSON.stringify({ kind: 'admin', exp: 9e15, nonce: 'x' })).toString(
      'base64url',
    );
    expect(verifySession(`${v}.${altered}.${sig}`, secret, now)).toEqual({ ok: false, reason: 'invalid' });
    expect(verifySession(`${v}.${body}`, secret, now).ok).toBe(false);
    expect(verifySession('garbage', secret, now).ok).toBe(false);
  });

  it('refuses well-signed claims that are malformed (a project session without a valid project id)', () => {
    const token = signSession(
      { kind: 'project', projectId: 'nope', keyId: 'k', exp: now.getTime() + 1, nonce: 'n' },
      secret,
    );
    expect(verifySession(token, secret, now)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('derives a per-session CSRF token and checks the header against it', () => {
    const a = principalClaims({ kind: 'admin' }, now);
    const b = principalClaims({ kind: 'admin' }, now);
    expect(csrfToken(a, secret)).not.toBe(csrfToken(b, secret));
    expect(() => checkCsrf(a, secret, csrfToken(a, secret))).not.toThrow();
    expect(() => checkCsrf(a, secret, undefined)).toThrow(DomainError);
    expect(() => checkCsrf(a, secret, csrfToken(b, secret))).toThrow(/does not match/);
  });

  it('reads one cookie from a Cookie header', () => {
    expect(readCookie('a=1; hookrail_console=v1.x.y; b=2', 'hookrail_console')).toBe('v1.x.y');
    expect(readCookie('a=1', 'hookrail_console')).toBeUndefined();
    expect(readCookie(undefined, 'hookrail_console')).toBeUndefined();
  });
});
