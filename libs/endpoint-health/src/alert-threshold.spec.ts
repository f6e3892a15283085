import { AlertThreshold } from './alert-threshold';

describe('AlertThreshold', () => {
  const cfg = { count: 3, threshold: '1m' };

  it('alerts when count failures happen within the threshold, then counts afresh', () => {
    const a = new AlertThreshold();
    expect(a.recordFailure('s', cfg, 0)).toBe(false);
    expect(a.recordFailure('s', cfg, 10_000)).toBe(false);
    expect(a.recordFailure('s', cfg, 59_000)).toBe(true);
    expect(a.recordFailure('s', cfg, 60_000)).toBe(false);
    expect(a.recordFailure('s', cfg, 61_000)).toBe(false);
    expect(a.recordFailure('s', cfg, 62_000)).toBe(true);
  });

  it('does not alert when the failures are spread wider than the threshold', () => {
    const a = new AlertThreshold();
    [0, 40_000, 80_000, 120_000].forEach((t) => expect(a.recordFailure('s', cfg, t)).toBe(false));
  });

  it('ignores a missing or unusable alert_config', () => {
    const a = new AlertThreshold();
    expect(a.recordFailure('s', null, 0)).toBe(false);
    expect(a.recordFailure('s', { count: 0, threshold: '1h' }, 0)).toBe(false);
    expect(a.recordFailure('s', { count: 1, threshold: 'soon' }, 0)).toBe(false);
    expect(a.recordFailure('s', { count: 1, threshold: '30s' }, 0)).toBe(true);
  });
});
