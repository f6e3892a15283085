import type { Express, Response } from 'express';
import { jwtVerify, SignJWT } from 'jose';
import type { OidcConfig } from '@hookrail/config';
import { assignedRolesOf } from '../auth/assigned-roles';
import { combineRoles, consoleRole, holdsAnyRole, rolesOfGroups } from '../auth/group-roles';
import { oidcClient, type OidcClient, type OidcFlow, type OidcIdentity } from '../auth/oidc-client';
import type { GatewayDeps } from '../deps';
import {
  SESSION_COOKIE,
  SESSION_TTL_MS,
  personClaims,
  readCookie,
  sealText,
  signSession,
  type SessionClaims,
} from './console-session';
import { SignInRefused, signInFailure } from './oidc-errors';
import { signInAuditor } from './sign-in-audit';
import { mountBackChannelLogout } from './oidc-logout';

export const OIDC_PATHS = { login: '/console/oidc/login', callback: '/console/oidc/callback' };
const FLOW_COOKIE = 'hookrail_oidc';
const FLOW_TTL_S = 600;

/** What the sign-in needs besides its configuration: the session's secret and the page headers. */
export interface OidcSignInDeps {
  gateway: Pick<GatewayDeps, 'config' | 'audit' | 'logger' | 'now' | 'store'>;
  secret: Buffer;
  pageHeaders: Record<string, string>;
}

/**
 * The flow's state, nonce and PKCE verifier, in a signed HttpOnly cookie for the provider's
 * redirect back. SameSite=Lax, not Strict: the callback is a top-level navigation from the
 * provider's site, on which a Strict cookie would not be sent. Path-scoped to the callback.
 */
async function flowCookie(flow: OidcFlow, secret: Buffer): Promise<string> {
  return new SignJWT({ ...flow })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer('hookrail-oidc-flow')
    .setExpirationTime(`${FLOW_TTL_S}s`)
    .sign(secret);
}

async function readFlow(token: string | undefined, secret: Buffer): Promise<OidcFlow> {
  try {
    const { payload } = await jwtVerify(token ?? '', secret, {
      algorithms: ['HS256'],
      issuer: 'hookrail-oidc-flow',
    });
    return {
      state: String(payload.state),
      nonce: String(payload.nonce),
      codeVerifier: String(payload.codeVerifier),
    };
  } catch {
    throw new SignInRefused(
      400,
      `no sign-in is in progress in this browser, or it took over ${FLOW_TTL_S / 60} minutes: start again`,
    );
  }
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function failurePage(res: Response, headers: Record<string, string>, failure: SignInRefused): void {
  res
    .status(failure.status)
    .set({ ...headers, 'cache-control': 'no-store' })
    .type('html')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign-in refused · Hookrail console</title></head>` +
        `<body><main><h1>Sign-in refused</h1><p role="alert" id="sign-in-refused">${escapeHtml(failure.message)}</p>` +
        `<p><a href="/console">Back to sign-in</a></p></main></body></html>`,
    );
}

/** The console's single sign-on: GET /console/oidc/login starts it, the provider returns to /callback. */
export function mountOidcSignIn(app: Express, config: OidcConfig, deps: OidcSignInDeps): OidcClient {
  const { gateway } = deps;
  const base = gateway.config.urls.gatewayPublic.replace(/\/$/, '');
  const secure = base.startsWith('https://');
  const oidc = oidcClient(config, `${base}${OIDC_PATHS.callback}`);
  const audit = signInAuditor(gateway);
  const cookie = { path: OIDC_PATHS.callback, httpOnly: true, sameSite: 'lax' as const, secure };
  app.get(OIDC_PATHS.login, async (_req, res) => {
    try {
      const { url, flow } = await oidc.start();
      res.cookie(FLOW_COOKIE, await flowCookie(flow, deps.secret), { ...cookie, maxAge: FLOW_TTL_S * 1000 });
      res.set('cache-control', 'no-store').redirect(303, url.href);
    } catch (err) {
      failurePage(res, deps.pageHeaders, signInFailure(err));
    }
  });
  app.get(OIDC_PATHS.callback, async (req, res) => {
    let person: OidcIdentity | undefined;
    try {
      const flow = await readFlow(readCookie(req.headers.cookie, FLOW_COOKIE), deps.secret);
      res.clearCookie(FLOW_COOKIE, cookie);
      const search = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?')) : '';
      person = await oidc.finish(new URL(`${base}${OIDC_PATHS.callback}${search}`), flow);
      const claims = await sessionOf(person, config, deps);
      res.cookie(SESSION_COOKIE, await signSession(claims, deps.secret), {
        path: '/',
        httpOnly: true,
        sameSite: 'strict',
        secure,
        maxAge: SESSION_TTL_MS,
      });
      audit(req, { ok: true, person, role: claims.role });
      gateway.logger.info({ sub: person.sub }, 'console sign-in (single sign-on)');
      res.set('cache-control', 'no-store').redirect(303, '/console');
    } catch (err) {
      const failure = signInFailure(err);
      audit(req, { ok: false, status: failure.status, reason: failure.message, person });
      gateway.logger.warn(
        { status: failure.status, reason: failure.message },
        'console sign-in refused (single sign-on)',
      );
      failurePage(res, deps.pageHeaders, failure);
    }
  });
  mountBackChannelLogout(app, oidc, deps);
  return oidc;
}

/**
 * The session a verified person gets. They are recorded among the people an owner can assign roles
 * to (even when refused: an owner can then give them one); their groups' roles and those assigned
 * combined must give some role, or it is a 403.
 */
export async function sessionOf(
  person: OidcIdentity,
  config: OidcConfig,
  deps: Pick<OidcSignInDeps, 'secret' | 'gateway'>,
): Promise<SessionClaims> {
  const { store } = deps.gateway;
  const now = deps.gateway.now();
  const groups = rolesOfGroups(person.groups, config.roleMapping) ?? { instance: null, projects: {} };
  await store.people.recordSignIn(
    person.sub,
    { email: person.email, name: person.name, groupRoles: groups },
    now,
  );
  const roles = combineRoles(groups, (await assignedRolesOf(store, person.sub)).roles);
  if (!holdsAnyRole(roles))
    throw new SignInRefused(
      403,
      `none of your groups (${person.groups.join(', ') || 'none sent'}) gives a role in Hookrail: ` +
        `ask an administrator to map one in HOOKRAIL_OIDC_ROLE_MAPPING (claim "${config.groupsClaim}"), ` +
        `or an owner to assign you one in the console`,
    );
  const refresh = person.refreshToken
    ? {
        sealed: await sealText(person.refreshToken, deps.secret),
        at: now.getTime() + config.refreshSeconds * 1000,
      }
    : undefined;
  const { role, projectId } = consoleRole(roles);
  const user = {
    sub: person.sub,
    email: person.email,
    name: person.name,
    roles: groups,
    signed_in_at: now.getTime(),
  };
  return { ...personClaims(user, role, refresh, now), ...(projectId && { projectId }) };
}
