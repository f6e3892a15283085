import { Router, type Express, type Request, type Response } from 'express';
import { DomainError, fail, ok } from '@hookrail/domain';
import { authenticate, type Principal } from '../auth/principal';
import type { GatewayDeps } from '../deps';
import { errorMapper } from '../http/error-mapper';
import { methodNotAllowed } from '../http/method-not-allowed';
import { jsonBody } from '../http/json-body';
import { validate } from '../http/validator';
import { consoleOperations, consoleSignInBody } from '@hookrail/api-contract';
import { consoleClaims, consoleSessionAuth, refuseCrossSite, type ConsoleAuthDeps } from './console-auth';
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
import { bindHandlers } from '@hookrail/api-contract';
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
  /** Plugged into the management API router: a console session authenticates API calls. */
  session: (req: Request) => Promise<Principal | undefined>;
  mount(app: Express): void;
}

/** A console operation's handler: it answers the envelope's data; cookies and headers go on `res`. */
type ConsoleHandler = (req: Request, res: Response) => Promise<unknown>;

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
  const secure = config.urls.gatewayPublic.startsWith('https://');
  const throttle = new SignInThrottle();

  const describe = (claims: SessionClaims) => ({
    kind: claims.kind,
    project_id: claims.projectId ?? null,
    expires_at: new Date(claims.exp).toISOString(),
    csrf_token: csrfToken(claims, auth.secret),
    csrf_header: CSRF_HEADER,
  });
  const clearCookie = (res: Response) =>
    res.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'strict', secure });

  const sessionAuth = consoleSessionAuth(auth);
  const handlers: Record<keyof typeof consoleOperations, ConsoleHandler> = {
    async signIn(req, res) {
      refuseCrossSite(req);
      // A JSON body cannot come from a cross-site form, which keeps sign-in itself CSRF-safe.
      if (!req.is('application/json'))
        throw new DomainError('unsupported_media_type', 'sign-in needs a JSON body: {"key": "<API key>"}');
      const { key } = validate(consoleSignInBody, req.body, 'invalid sign-in');
      const ip = req.ip ?? req.socket.remoteAddress ?? 'unknown';
      const now = deps.now().getTime();
      try {
        throttle.check(ip, key.trim(), now);
      } catch (err) {
        if (err instanceof SignInThrottled) res.setHeader('Retry-After', String(err.retryAfterSeconds));
        logger.warn({ ip }, 'console sign-in throttled');
        throw err;
      }
      let principal: Principal;
      try {
        principal = await authenticate(`Bearer ${key.trim()}`, {
          cache: deps.cache,
          adminKey: config.security.adminKey,
          now: deps.now,
        });
      } catch (err) {
        if (err instanceof DomainError && err.code === 'unauthenticated')
          throttle.failed(ip, key.trim(), now);
        logger.warn({ ip }, 'console sign-in refused');
        throw err;
      }
      throttle.succeeded(key.trim());
      const claims = principalClaims(principal, deps.now(), SESSION_TTL_MS);
      res.cookie(SESSION_COOKIE, await signSession(claims, auth.secret), {
        path: '/',
        httpOnly: true,
        sameSite: 'strict',
        secure,
        maxAge: SESSION_TTL_MS,
      });
      logger.info({ kind: claims.kind, projectId: claims.projectId }, 'console sign-in');
      return describe(claims);
    },
    async getSession(req, res) {
      const claims = await consoleClaims(req, auth);
      if (!claims) throw new DomainError('unauthenticated', 'not signed in');
      res.set('cache-control', 'no-store');
      return describe(claims);
    },
    async signOut(req, res) {
      refuseCrossSite(req);
      let claims: SessionClaims | undefined;
      try {
        claims = await consoleClaims(req, auth);
      } catch {
        claims = undefined; // an expired or broken session is simply cleared
      }
      if (claims) checkCsrf(claims, auth.secret, req.get(CSRF_HEADER));
      clearCookie(res);
      return null;
    },
  };
  const api = Router();
  api.use('/session', jsonBody(config.http.bodyLimitBytes));
  for (const op of bindHandlers(Object.values(consoleOperations), [handlers]))
    api[op.method](op.path, async (req, res) => {
      const data = await op.handler(req, res);
      res.status(op.status).json(ok(op.message, data));
    });
  api.use(methodNotAllowed(Object.values(consoleOperations)));
  api.use('/session', (req, res) => {
    res.status(404).json(fail(`no route for ${req.method} ${req.originalUrl.split('?')[0]}`));
  });
  api.use(errorMapper(logger));

  return {
    session: sessionAuth,
    mount(app) {
      app.use('/console', api);
      // The gateway's root used to answer "Cannot GET /": send people to the console.
      app.get('/', (_req, res) => void res.redirect(302, '/console'));
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
