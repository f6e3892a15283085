import { SignInThrottle, SignInThrottled, keyIdOf } from './sign-in-throttle';

describe('console sign-in throttle', () => {
  it('reads the key id of a project key only', () => {
    expect(keyIdOf('hr_01ABC.secret')).toBe('01ABC');
    expect(keyIdOf('some-admin-key')).toBeNull();
  });

  it('refuses after 10 failures of a key id from different IPs; a success clears the key id', () => {
    const t = new SignInThrottle();
    for (let i = 0; i < 9; i++) t.failed(`10.0.0.${i}`, 'hr_K1.bad', 0);
    expect(() => t.check('10.0.1.1', 'hr_K1.good', 0)).not.toThrow();
    t.succeeded('hr_K1.good');
    t.failed('10.0.0.9', 'hr_K1.bad', 0);
    expect(() => t.check('10.0.1.1', 'hr_K1.good', 0)).not.toThrow(); // cleared by the success
    for (let i = 0; i < 9; i++) t.failed(`10.0.2.${i}`, 'hr_K1.bad', 0);
    let thrown: unknown;
    try {
      t.check('10.0.1.1', 'hr_K1.good', 60_000);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(SignInThrottled);
    expect((thrown as SignInThrottled).retryAfterSeconds).toBe(14 * 60);
    expect(() => t.check('10.0.1.1', 'hr_K2.good', 60_000)).not.toThrow();
  });
});
