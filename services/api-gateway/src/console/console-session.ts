import { createHmac, randomBytes } from 'node:crypto';
import { CompactEncrypt, compactDecrypt, errors, jwtVerify, SignJWT } from 'jose';
import type { Role } from '@hookrail/api-contract';
import { DomainError, asProjectId, isId, safeEqual } from '@hookrail/domain';
import type { PersonRoles } from '../auth/group-roles';
import { principalRole, type KeyPrincipal, type Principal } from '../auth/principal';
import { roleOf } from '../auth/roles';

/**
 * The console's session: the API key typed at sign-in is exchanged for a signed, short-lived token
 * kept only in an httpOnly, SameSite=Strict cookie. The token is a stateless JWT (HS256, jose) so
 * any gateway replica accepts it; the key itself is never stored in it.
 */
export const SESSION_COOKIE = 'hookrail_console';
export const CSRF_HEADER = 'x-hookrail-csrf';
export const SESSION_TTL_MS = 30 * 60_000;

/** A person's session (single sign-on): who, their roles from their groups, when they signed in. */
export interface SessionUser {
  sub: string;
  email: string;
  name: string;
  /** What their groups give (the roles an owner assigned are read at each call: person-session.ts). */
  roles: PersonRoles;
  /** When they signed in (ms since the epoch): a back-channel logout after it ends the session. */
  signed_in_at?: number;
}

export interface SessionClaims {
  kind: 'admin' | 'project' | 'user';
  /** Person sessions (single sign-on). */
  user?: SessionUser;
  /**
   * Person sessions: the provider's refresh token, encrypted (only the gateway reads it), and when
   * the session next asks the provider for a fresh token (ms since the epoch).
   */
  refresh?: { sealed: string; at: number };
  /** Project sessions: the project and the API key they were opened with. */
  projectId?: string;
  keyId?: string;
  /** The key's role (an admin session: owner); a session from before roles reads as owner. */
  role: Role;
  viewPayloads: boolean;
  /** Expiry, ms since the epoch. */
  exp: number;
  /** Random per session: the CSRF token is derived from it. */
  nonce: string;
}

export type SessionCheck = { ok: true; claims: SessionClaims } | { ok: false; reason: 'invalid' | 'expired' };

const b64 = (buf: Buffer | string) => Buffer.from(buf).toString('base64url');

/**
 * Signing key: derived from the encryption key and the admin key, so rotating either ends every
 * open session. Without an encryption key a random one is used (sessions end when the process does).
 */
export function sessionSecret(encryptionKey: string | undefined, adminKey: string | undefined): Buffer {
  const base = encryptionKey ?? randomBytes(32).toString('hex');
  return createHmac('sha256', base)
    .update(`hookrail-console-session\0${adminKey ?? ''}`)
    .digest();
}

const mac = (secret: Buffer, data: string) => b64(createHmac('sha256', secret).update(data).digest());

export function principalClaims(principal: KeyPrincipal, now: Date, ttlMs = SESSION_TTL_MS): SessionClaims {
  // whole seconds: a JWT's exp is in seconds
  const base = {
    exp: Math.floor((now.getTime() + ttlMs) / 1000) * 1000,
    nonce: b64(randomBytes(16)),
    role: principalRole(principal),
    viewPayloads: principal.kind === 'admin' || principal.viewPayloads,
  };
  return principal.kind === 'admin'
    ? { kind: 'admin', ...base }
    : { kind: 'project', projectId: principal.projectId, keyId: principal.keyId, ...base };
}

const ISSUER = 'hookrail-console';

/** A compact JWS (HS256 JWT) over the claims, expiring with the session. */
export async function signSession(claims: SessionClaims, secret: Buffer): Promise<string> {
  const { exp, ...rest } = claims;
  return new SignJWT({ ...rest })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(ISSUER)
    .setExpirationTime(Math.floor(exp / 1000))
    .sign(secret);
}

export async function verifySession(token: string, secret: Buffer, now: Date): Promise<SessionCheck> {
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(token, secret, {
      algorithms: ['HS256'],
      issuer: ISSUER,
      currentDate: now,
    }));
  } catch (err) {
    return { ok: false, reason: err instanceof errors.JWTExpired ? 'expired' : 'invalid' };
  }
  const claims = {
    kind: payload.kind,
    ...(payload.projectId !== undefined && { projectId: payload.projectId }),
    ...(payload.keyId !== undefined && { keyId: payload.keyId }),
    ...(payload.user !== undefined && { user: payload.user }),
    ...(payload.refresh !== undefined && { refresh: payload.refresh }),
    role: roleOf(payload.role as string | undefined),
    viewPayloads: payload.viewPayloads !== false,
    exp: Number(payload.exp) * 1000,
    nonce: payload.nonce,
  } as SessionClaims;
  const wellFormed =
    typeof claims.nonce === 'string' &&
    (claims.kind === 'admin' ||
      (claims.kind === 'user' &&
        typeof claims.user?.sub === 'string' &&
        typeof claims.user.roles === 'object') ||
      (claims.kind === 'project' && isId(claims.projectId ?? '') && typeof claims.keyId === 'string'));
  return wellFormed ? { ok: true, claims } : { ok: false, reason: 'invalid' };
}

/** The anti-CSRF token: readable only by a same-origin script (from GET /console/session). */
export function csrfToken(claims: SessionClaims, secret: Buffer): string {
  return mac(secret, `csrf\0${claims.nonce}`);
}

export function checkCsrf(claims: SessionClaims, secret: Buffer, header: string | undefined): void {
  if (!header)
    throw new DomainError(
      'forbidden',
      `console session: a state-changing call needs the ${CSRF_HEADER} header`,
    );
  if (!safeEqual(header, csrfToken(claims, secret)))
    throw new DomainError(
      'forbidden',
      `console session: the ${CSRF_HEADER} header does not match the session`,
    );
}

/** The principal a verified session stands for (project sessions still re-check their key). */
export function claimsPrincipal(claims: SessionClaims): Principal {
  if (claims.kind === 'user')
    return {
      via: 'console',
      kind: 'user',
      userId: claims.user!.sub,
      email: claims.user!.email,
      name: claims.user!.name,
      roles: claims.user!.roles,
      // the role that counts is the path's project's, set per call (principalAuthenticator)
      role: claims.role,
      viewPayloads: false,
    };
  return claims.kind === 'admin'
    ? { via: 'console', kind: 'admin' }
    : {
        via: 'console',
        kind: 'project',
        projectId: asProjectId(claims.projectId!),
        keyId: claims.keyId!,
        role: claims.role,
        viewPayloads: claims.viewPayloads,
      };
}

/** The claims of a person's new session; `role` is what the console shows (see sessionRole). */
export function personClaims(
  user: SessionUser,
  role: Role,
  refresh: SessionClaims['refresh'],
  now: Date,
): SessionClaims {
  return {
    kind: 'user',
    user,
    ...(refresh && { refresh }),
    role,
    viewPayloads: false,
    exp: Math.floor((now.getTime() + SESSION_TTL_MS) / 1000) * 1000,
    nonce: b64(randomBytes(16)),
  };
}

const sealKey = (secret: Buffer) => createHmac('sha256', secret).update('refresh-token').digest();

/** Encrypts a refresh token for the cookie (AES-256-GCM, jose): the browser holds it, cannot read it. */
export async function sealText(text: string, secret: Buffer): Promise<string> {
  return new CompactEncrypt(new TextEncoder().encode(text))
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
    .encrypt(sealKey(secret));
}

export async function openText(sealed: string, secret: Buffer): Promise<string> {
  const { plaintext } = await compactDecrypt(sealed, sealKey(secret));
  return new TextDecoder().decode(plaintext);
}

/**
 * One cookie's value from a Cookie header (no other cookie matters here). Express sets cookies but
 * does not parse them; this is the whole of what the console needs, not worth a parser package.
 */
export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}
