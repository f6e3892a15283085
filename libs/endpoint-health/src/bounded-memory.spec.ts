import { AlertThreshold } from './alert-threshold';
import { DEFAULT_MAX_KEYS, RateLimiter } from './rate-limiter';

const FLOOD = 100_000;

describe('per-key state stays bounded under a flood of distinct keys', () => {
  it('RateLimiter keeps at most maxKeys keys and still limits the keys in use', () => {
    const rl = new RateLimiter({ maxKeys: 1_000 });
    for (let i = 0; i < FLOOD; i++) rl.take([{ key: `endpoint:${i}`, count: 1, durationSeconds: 60 }], i);
    expect(rl.size).toBe(1_000);
    // The most recent key is still tracked: its second send in the window waits.
    const hot = { key: `endpoint:${FLOOD - 1}`, count: 1, durationSeconds: 60 };
    expect(rl.take([hot], FLOOD).kind).toBe('wait');
  });

  it('RateLimiter default bound holds for 100k keys plus one more', () => {
    const rl = new RateLimiter();
    for (let i = 0; i <= FLOOD; i++) rl.take([{ key: `k${i}`, count: 5, durationSeconds: 1 }], i);
    expect(rl.size).toBe(DEFAULT_MAX_KEYS);
  });

  it('AlertThreshold keeps at most maxKeys subscriptions', () => {
    const at = new AlertThreshold({ maxKeys: 1_000 });
    const config = { count: 3, threshold: '1h' };
    for (let i = 0; i < FLOOD; i++) at.recordFailure(`sub:${i}`, config, i);
    expect(at.size).toBe(1_000);
    expect(at.recordFailure('sub:hot', config, 1)).toBe(false);
    expect(at.recordFailure('sub:hot', config, 2)).toBe(false);
    expect(at.recordFailure('sub:hot', config, 3)).toBe(true);
  });
});
