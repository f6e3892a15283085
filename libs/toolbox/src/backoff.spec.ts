import { backoffMs } from './backoff';

describe('backoffMs', () => {
  it('grows exponentially within [ceiling/2, ceiling] and is capped', () => {
    expect(backoffMs(0, { random: () => 0 })).toBe(100);
    expect(backoffMs(0, { random: () => 1 })).toBe(200);
    expect(backoffMs(3, { random: () => 1 })).toBe(1600);
    expect(backoffMs(30, { random: () => 1 })).toBe(10_000);
  });
});
