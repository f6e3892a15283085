import * as client from 'openid-client';
import { DomainError } from '@hookrail/domain';
import { SignInRefused, signInFailure } from './oidc-errors';

/** A ClientError as openid-client throws it: a general sentence, the exact check in its cause. */
function clientError(message: string, cause: string): client.ClientError {
  const err = new client.ClientError(message);
  (err as { cause?: unknown }).cause = new Error(cause);
  return err;
}

describe('a failed sign-in as the browser is told', () => {
  it('keeps a refusal the sign-in made itself (unmapped groups: 403)', () => {
    const refused = new SignInRefused(403, 'none of your groups');
    expect(signInFailure(refused)).toBe(refused);
  });

  it('answers a wrong state 400 and any other failed check 401, with the exact check named', () => {
    const state = signInFailure(
      clientError('invalid response encountered', 'unexpected "state" response parameter value'),
    );
    expect(state).toMatchObject({ status: 400 });
    expect(state.message).toBe(
      'the identity provider\'s answer failed a check: invalid response encountered: unexpected "state" response parameter value',
    );
    const nonce = signInFailure(
      clientError('unexpected JWT claim value encountered', 'unexpected ID Token "nonce" claim value'),
    );
    expect(nonce).toMatchObject({ status: 401 });
    expect(nonce.message).toMatch(/"nonce" claim value$/);
  });

  it('answers a discovery failure 503 and an unreachable token endpoint 502, never 500', () => {
    expect(
      signInFailure(new DomainError('unavailable', 'identity provider x: discovery failed')).status,
    ).toBe(503);
    expect(signInFailure(new TypeError('fetch failed'))).toMatchObject({
      status: 502,
      message: 'the identity provider could not be reached: fetch failed',
    });
  });
});
