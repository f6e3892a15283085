import type { DeliveryMessage, Publisher } from '@hookrail/bus';
import { Metrics } from '@hookrail/telemetry';
import { createFirstSends } from './first-sends';

const message = (endpointId: string, n: number): DeliveryMessage =>
  ({
    delivery_id: `d${n}`,
    project_id: 'p',
    endpoint_id: endpointId,
    event_id: 'e',
    reason: 'initial',
  }) as DeliveryMessage;

function harness(maxLocal: number) {
  const published: string[] = [];
  const started: string[] = [];
  const finish = new Map<string, () => void>();
  const publisher: Publisher = {
    publish: async (_topic, messages) => {
      for (const m of messages as DeliveryMessage[]) published.push(m.delivery_id);
    },
  };
  const deliver = createFirstSends({
    owns: (endpointId) => endpointId === 'mine',
    send: (m) =>
      new Promise<void>((resolve) => {
        started.push(m.delivery_id);
        finish.set(m.delivery_id, resolve);
      }),
    publisher,
    metrics: new Metrics('tests', { defaultMetrics: false }),
    maxLocal,
  });
  return { deliver, published, started, finish };
}

describe('createFirstSends', () => {
  it('sends first sends of owned endpoints here and publishes the others', async () => {
    const h = harness(10);
    const done = h.deliver([message('mine', 1), message('theirs', 2), message('mine', 3)]);
    await new Promise((r) => setImmediate(r));
    expect(h.started).toEqual(['d1', 'd3']);
    expect(h.published).toEqual(['d2']);
    // Resolves only once the local sends finished (the event's offset waits for them).
    let resolved = false;
    void done.then(() => (resolved = true));
    h.finish.get('d1')!();
    await new Promise((r) => setImmediate(r));
    expect(resolved).toBe(false);
    h.finish.get('d3')!();
    await done;
  });

  it('publishes owned first sends too once maxLocal are running here, and sends here again after', async () => {
    const h = harness(1);
    const first = h.deliver([message('mine', 1)]);
    const second = h.deliver([message('mine', 2)]);
    await second;
    expect(h.started).toEqual(['d1']);
    expect(h.published).toEqual(['d2']);
    h.finish.get('d1')!();
    await first;
    const third = h.deliver([message('mine', 3)]);
    await new Promise((r) => setImmediate(r));
    expect(h.started).toEqual(['d1', 'd3']);
    h.finish.get('d3')!();
    await third;
  });
});
