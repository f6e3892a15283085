import { LATENCY_BUCKETS, estimateQuantile, latencyBucket } from './latency-buckets';

describe('latency buckets', () => {
  it('puts a latency in the first bucket whose upper bound holds it', () => {
    expect(latencyBucket(0)).toBe(0);
    expect(latencyBucket(25)).toBe(0);
    expect(latencyBucket(26)).toBe(1);
    expect(latencyBucket(400)).toBe(4);
    expect(latencyBucket(30_000)).toBe(9);
    expect(latencyBucket(90_000)).toBe(LATENCY_BUCKETS - 1);
  });

  it('estimates quantiles inside the bucket that holds them', () => {
    const h = new Array<number>(LATENCY_BUCKETS).fill(0);
    expect(estimateQuantile(h, 0.5)).toBeNull();
    h[2] = 10; // ten attempts in 50–100 ms
    expect(estimateQuantile(h, 0.5)).toBe(75);
    expect(estimateQuantile(h, 0.95)).toBe(98);
    h[6] = 1; // one slow attempt in 1–2.5 s: p95 of 11 falls in it
    expect(estimateQuantile(h, 0.5)).toBe(78);
    expect(estimateQuantile(h, 0.95)).toBe(1675);
  });

  it('answers the lower bound of the open last bucket', () => {
    const h = new Array<number>(LATENCY_BUCKETS).fill(0);
    h[LATENCY_BUCKETS - 1] = 3;
    expect(estimateQuantile(h, 0.95)).toBe(30_000);
  });
});
