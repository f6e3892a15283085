import { deliveryRateLimits, RateLimiter } from './rate-limiter';

const ep = (count: number, seconds: number) => ({ key: 'endpoint:e1', count, durationSeconds: seconds });

describe('RateLimiter', () => {
  it('allows up to count sends per window, then says when the next one may go', () => {
    const rl = new RateLimiter();
    for (let i = 0; i < 3; i++) expect(rl.take([ep(3, 10)], 1000 + i)).toEqual({ kind: 'allow' });
    // A slot frees ARRIVAL_MARGIN_MS after its window.
    expect(rl.take([ep(3, 10)], 1500)).toEqual({ kind: 'wait', untilMs: 11_050, key: 'endpoint:e1' });
    expect(rl.take([ep(3, 10)], 11_049).kind).toBe('wait');
    expect(rl.take([ep(3, 10)], 11_050)).toEqual({ kind: 'allow' });
  });

  it('never allows more than count in any sliding window', () => {
    const rl = new RateLimiter();
    const sent: number[] = [];
    for (let t = 0; t < 60_000; t += 37) if (rl.take([ep(5, 2)], t).kind === 'allow') sent.push(t);
    for (const t of sent) expect(sent.filter((s) => s >= t && s < t + 2000).length).toBeLessThanOrEqual(5);
    // and uses the allowance: about 5 per 2 s over 60 s
    expect(sent.length).toBeGreaterThanOrEqual(140);
  });

  it('spreads deliveries held at the same moment over successive slots', () => {
    const rl = new RateLimiter();
    rl.take([ep(2, 10)], 0);
    rl.take([ep(2, 10)], 0);
    const waits = [1, 2, 3].map(() => rl.take([ep(2, 10)], 100));
    expect(waits.map((w) => w.kind === 'wait' && w.untilMs)).toEqual([10_050, 15_050, 20_050]);
  });

  it('applies endpoint and subscription limits together: the stricter one decides, no slot is taken on wait', () => {
    const rl = new RateLimiter();
    const limits = [ep(10, 1), { key: 'subscription:s1', count: 1, durationSeconds: 5 }];
    expect(rl.take(limits, 0)).toEqual({ kind: 'allow' });
    expect(rl.take(limits, 10)).toEqual({ kind: 'wait', untilMs: 5050, key: 'subscription:s1' });
    // the endpoint limit still has 9 slots: the held delivery did not use one
    for (let i = 0; i < 9; i++) expect(rl.take([ep(10, 1)], 20)).toEqual({ kind: 'allow' });
    expect(rl.take([ep(10, 1)], 20).kind).toBe('wait');
  });

  it('treats a zero count or duration as no limit, and a changed limit as a fresh window', () => {
    const rl = new RateLimiter();
    for (let i = 0; i < 100; i++) expect(rl.take([ep(0, 0)], i).kind).toBe('allow');
    rl.take([ep(1, 60)], 0);
    expect(rl.take([ep(1, 60)], 1).kind).toBe('wait');
    expect(rl.take([ep(2, 60)], 2).kind).toBe('allow');
  });
});

describe('deliveryRateLimits', () => {
  it('includes the subscription limit only when it is configured', () => {
    const endpoint = { _id: 'e', rate_limit: 5, rate_limit_duration: 1 };
    expect(deliveryRateLimits(endpoint, { _id: 's', rate_limit_config: null })).toHaveLength(1);
    expect(deliveryRateLimits(endpoint, { _id: 's', rate_limit_config: { count: 2, duration: 3 } })).toEqual([
      { key: 'endpoint:e', count: 5, durationSeconds: 1 },
      { key: 'subscription:s', count: 2, durationSeconds: 3 },
    ]);
  });
});
