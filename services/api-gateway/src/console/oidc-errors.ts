import * as client from 'openid-client';
import { DomainError, errorMessage } from '@hookrail/domain';

/** A refused sign-in: the status the browser gets and the sentence the page and the audit log show. */
export class SignInRefused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'SignInRefused';
  }
}

const DOMAIN_STATUS: Partial<Record<DomainError['code'], number>> = { unavailable: 503, forbidden: 403 };

/**
 * What went wrong in a sign-in, as a 4xx (or a 502/503 when the provider cannot be reached): the
 * library's checks (state, nonce, PKCE, issuer, signature, expiry) are the browser's or the
 * token's fault, never the gateway's, so none of them is a 500.
 */
export function signInFailure(err: unknown): SignInRefused {
  if (err instanceof SignInRefused) return err;
  if (err instanceof DomainError) return new SignInRefused(DOMAIN_STATUS[err.code] ?? 400, err.message);
  if (err instanceof client.AuthorizationResponseError)
    return new SignInRefused(
      401,
      `the identity provider refused the sign-in: ${err.error}${detail(err.error_description)}`,
    );
  if (err instanceof client.ResponseBodyError)
    return new SignInRefused(
      401,
      `the identity provider refused the token request: ${err.error}${detail(err.error_description)}`,
    );
  if (err instanceof client.ClientError) {
    // the library's sentence is general ("unexpected JWT claim value encountered"), its cause's exact
    const cause =
      err.cause instanceof Error && err.cause.message !== err.message ? `: ${err.cause.message}` : '';
    const status = /"state"/.test(cause) ? 400 : 401;
    return new SignInRefused(status, `the identity provider's answer failed a check: ${err.message}${cause}`);
  }
  return new SignInRefused(502, `the identity provider could not be reached: ${errorMessage(err)}`);
}

const detail = (description: string | undefined) => (description ? ` (${description})` : '');
