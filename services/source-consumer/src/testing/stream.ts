import type { BrokerFixture } from './broker-fixture';

/**
 * Publishes `total` messages `{tag, n}` in `batches` batches a fixed interval apart, calling
 * `between(i)` after batch i: a stream a test can disturb in the middle.
 */
export async function publishStream(
  broker: Pick<BrokerFixture, 'publish'>,
  tag: string,
  opts: {
    total: number;
    batches: number;
    intervalMs: number;
    between?: (batch: number) => Promise<void> | void;
  },
): Promise<void> {
  const size = Math.ceil(opts.total / opts.batches);
  for (let b = 0; b < opts.batches; b++) {
    const bodies = [];
    for (let n = b * size; n < Math.min(opts.total, (b + 1) * size); n++) bodies.push({ tag, n });
    await broker.publish(bodies);
    await opts.between?.(b);
    await new Promise((r) => setTimeout(r, opts.intervalMs));
  }
}
