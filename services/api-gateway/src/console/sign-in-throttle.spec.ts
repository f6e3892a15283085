import { projectKeyId } from '../auth/principal';
import { SignInThrottle, SignInThrottled } from './sign-in-throttle';

const key = (id: string, secret: string) => `hr_${id}.${secret.padEnd(16, '0')}`;
const K1 = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
const K2 = '01BX5ZZKBKACTAV9WEVGEMMVRZ';

describe('console sign-in throttle', () => {
  it('reads the key id of a project key only: the admin key, whatever its shape, has none', () => {
    expect(projectKeyId(key(K1, 'secret'))).toBe(K1);
    expect(projectKeyId('some-admin-key')).toBeNull();
    expect(projectKeyId('hr_admin.test-admin-key-0123456789')).toBeNull();
  });

  it('refuses after 10 failures of a key id from different IPs; a success clears the key id', () => {
    const t = new SignInThrottle();
    for (let i = 0; i < 9; i++) t.failed(`10.0.0.${i}`, key(K1, 'bad'), 0);
    expect(() => t.check('10.0.1.1', key(K1, 'good'), 0)).not.toThrow();
    t.succeeded(key(K1, 'good'));
    t.failed('10.0.0.9', key(K1, 'bad'), 0);
    expect(() => t.check('10.0.1.1', key(K1, 'good'), 0)).not.toThrow(); // cleared by the success
    for (let i = 0; i < 9; i++) t.failed(`10.0.2.${i}`, key(K1, 'bad'), 0);
    let thrown: unknown;
    try {
      t.check('10.0.1.1', key(K1, 'good'), 60_000);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(SignInThrottled);
    expect((thrown as SignInThrottled).retryAfterSeconds).toBe(14 * 60);
    expect(() => t.check('10.0.1.1', key(K2, 'good'), 60_000)).not.toThrow();
  });
});
