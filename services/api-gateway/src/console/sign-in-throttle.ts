import { DomainError } from '@hookrail/domain';
import { FailureThrottle } from '@hookrail/toolbox';
import { projectKeyId } from '../auth/principal';

/** Failed console sign-ins allowed per client IP and per key id in a window. */
const SIGN_IN_FAILURES = 10;
const SIGN_IN_WINDOW_MS = 15 * 60_000;

/**
 * Guessing keys through the console's sign-in: after SIGN_IN_FAILURES failures from one client IP,
 * or for one key id, in SIGN_IN_WINDOW_MS, sign-in answers 429 with Retry-After until the window
 * from the first failure ends. Per gateway replica (in memory). A success clears its key id.
 */
export class SignInThrottle {
  private readonly byIp = new FailureThrottle({ limit: SIGN_IN_FAILURES, windowMs: SIGN_IN_WINDOW_MS });
  private readonly byKey = new FailureThrottle({ limit: SIGN_IN_FAILURES, windowMs: SIGN_IN_WINDOW_MS });

  /** Throws a 429 (with the seconds to wait in `retryAfter`) when the IP or the key id is refused. */
  check(ip: string, key: string, now: number): void {
    const keyId = projectKeyId(key);
    const waitMs = Math.max(this.byIp.blockedFor(ip, now), keyId ? this.byKey.blockedFor(keyId, now) : 0);
    if (waitMs > 0) throw new SignInThrottled(Math.ceil(waitMs / 1000));
  }

  failed(ip: string, key: string, now: number): void {
    this.byIp.fail(ip, now);
    const keyId = projectKeyId(key);
    if (keyId) this.byKey.fail(keyId, now);
  }

  succeeded(key: string): void {
    const keyId = projectKeyId(key);
    if (keyId) this.byKey.reset(keyId);
  }
}

export class SignInThrottled extends DomainError {
  constructor(readonly retryAfterSeconds: number) {
    super('rate_limited', `too many failed sign-ins: try again in ${retryAfterSeconds} s`);
  }
}
