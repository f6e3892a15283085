import { FailureThrottle } from './failure-throttle';

const MIN = 60_000;

describe('FailureThrottle', () => {
  it('refuses a key after the limit of failures until the window from its first failure ends', () => {
    const t = new FailureThrottle({ limit: 3, windowMs: 15 * MIN });
    t.fail('ip', 0);
    t.fail('ip', 1 * MIN);
    expect(t.blockedFor('ip', 2 * MIN)).toBe(0);
    t.fail('ip', 2 * MIN);
    expect(t.blockedFor('ip', 2 * MIN)).toBe(13 * MIN);
    expect(t.blockedFor('other', 2 * MIN)).toBe(0);
    expect(t.blockedFor('ip', 15 * MIN)).toBe(0); // the window is over: a fresh start
    t.fail('ip', 15 * MIN);
    expect(t.blockedFor('ip', 15 * MIN)).toBe(0);
  });

  it('forgets a key on reset', () => {
    const t = new FailureThrottle({ limit: 1, windowMs: MIN });
    t.fail('key', 0);
    expect(t.blockedFor('key', 0)).toBe(MIN);
    t.reset('key');
    expect(t.blockedFor('key', 0)).toBe(0);
  });

  it('keeps at most maxKeys windows, dropping the oldest', () => {
    const t = new FailureThrottle({ limit: 1, windowMs: MIN, maxKeys: 2 });
    t.fail('a', 0);
    t.fail('b', 1);
    t.fail('c', 2);
    expect(t.blockedFor('a', 3)).toBe(0);
    expect(t.blockedFor('b', 3)).toBeGreaterThan(0);
    expect(t.blockedFor('c', 3)).toBeGreaterThan(0);
  });
});
