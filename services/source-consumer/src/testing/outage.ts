import type { SourceDoc } from '@hookrail/store';
import { waitFor } from '@hookrail/testkit';
import type { BrokerStack } from './broker-stack';
import { publishStream } from './stream';

/**
 * Publishes 1,000 messages `{tag, n}` with a broker outage after the fifth batch: the source must
 * show `unreachable` during it, consume again after it, and every message must arrive.
 */
export async function streamThroughOutage(
  stack: BrokerStack,
  source: SourceDoc,
  broker: { publish(bodies: object[]): Promise<void> },
  tag: string,
  outage: { down(): Promise<void>; up(): Promise<void> },
): Promise<void> {
  await stack.waitState(source, 'consuming', 60_000);
  await publishStream(broker, tag, {
    total: 1000,
    batches: 10,
    intervalMs: 200,
    between: async (b) => {
      if (b !== 4) return;
      await outage.down();
      await stack.waitState(source, 'unreachable', 60_000);
      await outage.up();
    },
  });
  await stack.waitState(source, 'consuming', 90_000);
  await waitFor('all 1,000 messages delivered', () => stack.distinctTagged(tag).size === 1000, {
    timeoutMs: 90_000,
    intervalMs: 250,
  }).catch((err: Error) => {
    throw new Error(`${err.message}: ${stack.distinctTagged(tag).size} of 1000`);
  });
}
