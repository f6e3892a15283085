import { DomainError, asProjectId } from '@hookrail/domain';
import {
  checkCsrf,
  claimsPrincipal,
  csrfToken,
  openText,
  personClaims,
  principalClaims,
  readCookie,
  sealText,
  sessionSecret,
  signSession,
  verifySession,
} from './console-session';

const secret = sessionSecret('enc-key', 'admin-key');
const now = new Date('2026-01-01T12:00:00Z');
const PROJECT = asProjectId('01JBZ0000000000000000000PJ');

describe('console session tokens', () => {
  it('round-trips a project session and keeps its principal', async () => {
    const key = {
      kind: 'project',
      projectId: PROJECT,
      keyId: 'k1',
      role: 'viewer',
      viewPayloads: false,
    } as const;
    const claims = principalClaims({ via: 'key', ...key }, now, 60_000);
    const token = await signSession(claims, secret);
    expect(token.split('.')).toHaveLength(3); // a compact JWS
    const check = await verifySession(token, secret, now);
    expect(check).toEqual({ ok: true, claims });
    // the role travels in the signed session
    expect(claimsPrincipal(claims)).toEqual({ via: 'console', ...key });
  });

  it('refuses a token after its expiry, and tokens signed with another secret or altered', async () => {
    const token = await signSession(principalClaims({ via: 'key', kind: 'admin' }, now, 60_000), secret);
    expect(await verifySession(token, secret, new Date(now.getTime() + 60_000))).toEqual({
      ok: false,
      reason: 'expired',
    });
    // Rotating the admin key (or the encryption key) ends every session.
    expect((await verifySession(token, sessionSecret('enc-key', 'new-admin-key'), now)).ok).toBe(false);
    const [header, body, sig] = token.split('.');
    const altered = Buffer.from(JSON.stringify({ kind: 'admin', exp: 9e9, nonce: 'x' })).toString(
      'base64url',
    );
    expect(await verifySession(`${header}.${altered}.${sig}`, secret, now)).toEqual({
      ok: false,
      reason: 'invalid',
    });
    expect((await verifySession(`${header}.${body}`, secret, now)).ok).toBe(false);
    expect((await verifySession('garbage', secret, now)).ok).toBe(false);
    // `alg: none` (an unsigned token) is never accepted
    const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    expect((await verifySession(`${none}.${body}.`, secret, now)).ok).toBe(false);
  });

  it('refuses well-signed claims that are malformed (a project session without a valid project id)', async () => {
    const token = await signSession(
      {
        kind: 'project',
        projectId: 'nope',
        keyId: 'k',
        role: 'owner',
        viewPayloads: true,
        exp: now.getTime() + 60_000,
        nonce: 'n',
      },
      secret,
    );
    expect(await verifySession(token, secret, now)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('derives a per-session CSRF token and checks the header against it', () => {
    const a = principalClaims({ via: 'key', kind: 'admin' }, now);
    const b = principalClaims({ via: 'key', kind: 'admin' }, now);
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

  it("round-trips a person's session: who, their roles, the sealed refresh token only the gateway opens", async () => {
    const user = {
      sub: 'user-alice',
      email: 'alice@example.test',
      name: 'Alice',
      roles: { instance: 'owner' as const, projects: {} },
    };
    const sealed = await sealText('refresh-token-1', secret);
    expect(sealed).not.toContain('refresh-token-1');
    const claims = personClaims(user, 'owner', { sealed, at: now.getTime() + 300_000 }, now);
    const check = await verifySession(await signSession(claims, secret), secret, now);
    expect(check).toEqual({ ok: true, claims });
    expect(claimsPrincipal(claims)).toMatchObject({
      kind: 'user',
      userId: 'user-alice',
      email: 'alice@example.test',
    });
    await expect(openText(sealed, secret)).resolves.toBe('refresh-token-1');
    await expect(openText(sealed, sessionSecret('other', 'admin-key'))).rejects.toThrow();
  });
});
