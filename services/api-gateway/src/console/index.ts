import type { Express, Request, Response } from 'express';
import { DomainError } from '@hookrail/domain';
import type { consoleOperations } from '@hookrail/api-contract';
import { authenticate, type KeyPrincipal, type Principal } from '../auth/principal';
import { permissionsOf, seesPayloads } from '../auth/roles';
import type { GatewayDeps } from '../deps';
import type { Authenticator } from '../http/authenticators';
import type { Handlers } from '../http/call';
import {
  consoleAuthenticator,
  consoleClaims,
  consoleSessionAuth,
  publicAuthenticator,
  type ConsoleAuthDeps,
} from './console-auth';
import {
  CSRF_HEADER,
  SESSION_COOKIE,
  SESSION_TTL_MS,
  checkCsrf,
  csrfToken,
  principalClaims,
  sessionSecret,
  signSession,
  type SessionClaims,
} from './console-session';
import { SignInThrottle, SignInThrottled } from './sign-in-throttle';
import { OIDC_PATHS, mountOidcSignIn } from './oidc-sign-in';
import { sessionRefresher } from './oidc-refresh';
import { personSession } from './person-session';
import { checkRoleMapping, roleIn } from '../auth/group-roles';
import type { OidcConfig } from '@hookrail/config';
import { sendUiPage, uiAssets } from '../ui-assets/ui-assets';

/** The page runs only its own script and stylesheet and talks only to its own origin. */
const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

export interface GatewayConsole {
  /** Plugged into the management API's authenticator: a console session authenticates API calls. */
  session: (req: Request) => Promise<Principal | undefined>;
  /** The auth kinds of the console's own calls: its session, and the public sign-in and sign-out. */
  authenticators: { console: Authenticator<SessionClaims>; public: Authenticator<null> };
  /** Its session operations (sign-in, the session, sign-out), served under /console with the others. */
  handlers: Handlers<typeof consoleOperations>;
  /** The page and its assets; mounted after the session operations, which share the prefix. */
  mountPages(app: Express): void;
}

/** The operator console at /console: sign-in/out under /console/session, the page and its assets. */
export function createConsole(deps: GatewayDeps): GatewayConsole {
  const { config, logger } = deps;
  if (!config.security.encryptionKey)
    logger.warn('HOOKRAIL_ENCRYPTION_KEY is not set: console sessions end when this gateway restarts');
  const auth: ConsoleAuthDeps = {
    cache: deps.cache,
    secret: sessionSecret(config.security.encryptionKey, config.security.adminKey),
    now: deps.now,
  };
  const oidc = config.oidc && singleSignOn(deps, config.oidc, auth);
  if (oidc) {
    auth.refresh = oidc.refresh;
    auth.person = personSession(deps.store);
  }
  return {
    session: consoleSessionAuth(auth),
    authenticators: { console: consoleAuthenticator(auth), public: publicAuthenticator },
    handlers: sessionHandlers(deps, auth),
    mountPages(app) {
      // The gateway's root used to answer "Cannot GET /": send people to the console.
      app.get('/', (_req, res) => void res.redirect(302, '/console'));
      oidc?.mount(app);
      app.use('/console/assets', uiAssets());
      // Every other /console path is the single page: it reads the view and filters from the URL.
      app.get(/^\/console(\/(?!assets\/|session\b).*)?$/, (_req, res) =>
        sendUiPage(res, 'console', 'Hookrail console', '/console/assets', {
          ...PAGE_HEADERS,
          'cache-control': 'no-store',
        }),
      );
    },
  };
}

/** Sign-in, the session and sign-out: the cookie is set and cleared on `res`. */
function sessionHandlers(deps: GatewayDeps, auth: ConsoleAuthDeps): Handlers<typeof consoleOperations> {
  const secure = deps.config.urls.gatewayPublic.startsWith('https://');
  const describe = (claims: SessionClaims) => ({
    kind: claims.kind,
    project_id: claims.projectId ?? null,
    user: claims.user ? { id: claims.user.sub, email: claims.user.email, name: claims.user.name } : null,
    role: claims.role,
    permissions: permissionsOf(claims.role),
    view_payloads: seesPayloads(claims.role, claims.viewPayloads),
    project_grants: projectGrants(claims),
    expires_at: new Date(claims.exp).toISOString(),
    csrf_token: csrfToken(claims, auth.secret),
    csrf_header: CSRF_HEADER,
  });
  const signIn = signInWith(deps, new SignInThrottle());
  const keySignIn = deps.config.security.consoleAdminKeySignIn;
  return {
    async signInOptions() {
      return {
        key: keySignIn,
        single_sign_on: deps.config.oidc ? { login_url: OIDC_PATHS.login } : null,
      };
    },
    async signIn({ req, res, body }) {
      if (!keySignIn)
        throw new DomainError(
          'forbidden',
          'signing in with a key is turned off on this gateway (HOOKRAIL_CONSOLE_KEY_SIGN_IN=false): use single sign-on',
        );
      const claims = principalClaims(await signIn(req, res, body.key.trim()), deps.now(), SESSION_TTL_MS);
      res.cookie(SESSION_COOKIE, await signSession(claims, auth.secret), {
        path: '/',
        httpOnly: true,
        sameSite: 'strict',
        secure,
        maxAge: SESSION_TTL_MS,
      });
      deps.logger.info({ kind: claims.kind, projectId: claims.projectId }, 'console sign-in');
      return describe(claims);
    },
    async getSession({ res, actor }) {
      res.set('cache-control', 'no-store');
      return describe(actor);
    },
    async signOut({ req, res }) {
      let claims: SessionClaims | undefined;
      try {
        claims = await consoleClaims(req, auth);
      } catch {
        claims = undefined; // an expired or broken session is simply cleared
      }
      if (claims) checkCsrf(claims, auth.secret, req.get(CSRF_HEADER));
      clearCookie(res, secure);
      return null;
    },
  };
}

/** The OpenID Connect sign-in's routes and the session refresh it adds to the console's checks. */
function singleSignOn(deps: GatewayDeps, config: OidcConfig, auth: ConsoleAuthDeps) {
  checkRoleMapping(config.roleMapping);
  const signInDeps = { gateway: deps, secret: auth.secret, pageHeaders: PAGE_HEADERS };
  let refresh: ((req: Request, claims: SessionClaims) => Promise<SessionClaims>) | undefined;
  return {
    mount(app: Express) {
      refresh = sessionRefresher(mountOidcSignIn(app, config, signInDeps), config, signInDeps);
    },
    refresh: (req: Request, claims: SessionClaims) => {
      if (!refresh) throw new DomainError('unavailable', 'single sign-on is starting');
      return refresh(req, claims);
    },
  };
}

/** A person's per-project roles as the console reads them (the role that counts in each project). */
function projectGrants(claims: SessionClaims) {
  const roles = claims.user?.roles;
  if (!roles) return [];
  return Object.keys(roles.projects).map((projectId) => {
    const role = roleIn(roles, projectId)!;
    return {
      project_id: projectId,
      role,
      permissions: permissionsOf(role),
      view_payloads: seesPayloads(role),
    };
  });
}

function clearCookie(res: Response, secure: boolean): void {
  res.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'strict', secure });
}

/** A key's principal, through the throttle that slows guessing per address and per key. */
function signInWith(deps: GatewayDeps, throttle: SignInThrottle) {
  const { logger } = deps;
  return async (req: Request, res: Response, key: string): Promise<KeyPrincipal> => {
    const ip = req.ip ?? req.socket.remoteAddress ?? 'unknown';
    const now = deps.now().getTime();
    try {
      throttle.check(ip, key, now);
    } catch (err) {
      if (err instanceof SignInThrottled) res.setHeader('Retry-After', String(err.retryAfterSeconds));
      logger.warn({ ip }, 'console sign-in throttled');
      throw err;
    }
    try {
      const principal = await authenticate(`Bearer ${key}`, {
        cache: deps.cache,
        adminKey: deps.config.security.adminKey,
        now: deps.now,
      });
      throttle.succeeded(key);
      return principal;
    } catch (err) {
      if (err instanceof DomainError && err.code === 'unauthenticated') throttle.failed(ip, key, now);
      logger.warn({ ip }, 'console sign-in refused');
      throw err;
    }
  };
}
