import { urlencoded, type Express, type Request, type Response } from 'express';
import { errorMessage } from '@hookrail/domain';
import { LogoutTokenRefused } from '../auth/logout-token';
import type { OidcClient } from '../auth/oidc-client';
import type { OidcSignInDeps } from './oidc-sign-in';
import { signInAuditor } from './sign-in-audit';

const BACKCHANNEL_LOGOUT_PATH = '/console/oidc/backchannel-logout';

/**
 * OpenID Connect Back-Channel Logout 1.0: the provider posts a logout token here when a person's
 * session ends there (they signed out, an administrator ended it). Sessions are stateless cookies,
 * so the person's record keeps when: every session of theirs signed in before it is refused at its
 * next call (person-session.ts). Register `<public URL>/console/oidc/backchannel-logout` as the
 * client's back-channel logout URI. A token that does not verify is a 400, as the spec asks; both
 * outcomes are in the instance's audit log.
 */
export function mountBackChannelLogout(
  app: Express,
  oidc: OidcClient,
  deps: Pick<OidcSignInDeps, 'gateway'>,
): void {
  const { gateway } = deps;
  const audit = signInAuditor(gateway);
  const answer = (res: Response, status: number, error?: { error: string; error_description: string }) =>
    res
      .status(status)
      .set('cache-control', 'no-store')
      .json(error ?? {});
  app.post(
    BACKCHANNEL_LOGOUT_PATH,
    urlencoded({ extended: false, limit: '16kb' }),
    async (req: Request, res) => {
      try {
        const { sub } = await oidc.verifyLogoutToken(logoutTokenOf(req));
        const person = await gateway.store.people.endSessions(sub, gateway.now());
        audit(req, {
          ok: true,
          person: { sub, email: person?.email ?? '' },
          role: null,
          operation: 'session.logout',
          status: 200,
        });
        gateway.logger.info(
          { sub, known: person !== null },
          'console: sessions ended by the provider (back-channel logout)',
        );
        answer(res, 200);
      } catch (err) {
        const refused = err instanceof LogoutTokenRefused;
        const reason = refused ? err.message : `could not end the sessions: ${errorMessage(err)}`;
        audit(req, { ok: false, status: refused ? 400 : 503, reason, operation: 'session.logout_failed' });
        gateway.logger.warn({ reason }, 'console: back-channel logout refused');
        answer(res, refused ? 400 : 503, {
          error: refused ? 'invalid_request' : 'temporarily_unavailable',
          error_description: reason,
        });
      }
    },
  );
}

function logoutTokenOf(req: Request): string {
  const token = (req.body as Record<string, unknown> | undefined)?.logout_token;
  if (typeof token !== 'string' || token === '')
    throw new LogoutTokenRefused('no logout_token field in an application/x-www-form-urlencoded body');
  return token;
}
