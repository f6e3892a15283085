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

function harness(
  maxLocal: number,
  slotWaitMs = 0,
  slotStallMs = 0,
  owns: (endpointId: string) => boolean = (endpointId) => endpointId === 'mine',
) {
  const published: string[] = [];
  const started: string[] = [];
  const finish = new Map<string, () => void>();
  const answer = new Map<string, () => void>();
  const publisher: Publisher = {
    publish: async (_topic, messages) => {
      for (const m of messages as DeliveryMessage[]) published.push(m.delivery_id);
    },
  };
  const deliver = createFirstSends({
    owns,
    send: (m, attemptEnded) =>
      new Promise<void>((resolve) => {
        started.push(m.delivery_id);
        finish.set(m.delivery_id, resolve);
        if (attemptEnded) answer.set(m.delivery_id, attemptEnded);
      }),
    publisher,
    metrics: new Metrics('tests', { defaultMetrics: false }),
    maxLocal,
    slotWaitMs,
    slotStallMs,
  });
  return { deliver, published, started, finish, answer };
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

  it("frees a send's slot once its request is answered, while its record is still pending", async () => {
    const h = harness(1);
    const first = h.deliver([message('mine', 1)]);
    await new Promise((r) => setImmediate(r));
    h.answer.get('d1')!(); // answered; the record has not been written yet
    h.answer.get('d1')!(); // told twice: still one slot given back
    const second = h.deliver([message('mine', 2)]);
    const third = h.deliver([message('mine', 3)]);
    await third;
    await new Promise((r) => setImmediate(r));
    expect(h.started).toEqual(['d1', 'd2']);
    expect(h.published).toEqual(['d3']);
    h.finish.get('d1')!(); // the record of d1: its slot is not given back a second time
    await first;
    const fourth = h.deliver([message('mine', 4)]);
    await fourth;
    expect(h.published).toEqual(['d3', 'd4']);
    h.finish.get('d2')!();
    await second;
  });

  it("waits for a local slot while the endpoint's slots turn over, and publishes when they stall", async () => {
    const SLOT_WAIT_MS = 5000;
    const h = harness(1, SLOT_WAIT_MS, 100);
    const first = h.deliver([message('mine', 1)]);
    await new Promise((r) => setImmediate(r));
    h.finish.get('d1')!();
    await first;
    // The slot turned over just now: d3 waits for d2's slot and gets it when d2 finishes.
    const second = h.deliver([message('mine', 2)]);
    const third = h.deliver([message('mine', 3)]);
    await new Promise((r) => setTimeout(r, 20));
    expect(h.started).toEqual(['d1', 'd2']);
    h.finish.get('d2')!();
    await second;
    await new Promise((r) => setImmediate(r));
    expect(h.started).toEqual(['d1', 'd2', 'd3']);
    expect(h.published).toEqual([]);
    // d3 hangs: no slot released for 100 ms, so d4 is published well before its 5 s wait.
    const waited = Date.now();
    await h.deliver([message('mine', 4)]);
    expect(Date.now() - waited).toBeLessThan(SLOT_WAIT_MS / 2);
    expect(h.published).toEqual(['d4']);
    h.finish.get('d3')!();
    await third;
  });

  it('publishes at once a first send to an endpoint holding no slot while all are taken', async () => {
    const h = harness(1, 5000, 100, (id) => id !== 'theirs');
    const first = h.deliver([message('mine', 1)]);
    await new Promise((r) => setImmediate(r));
    h.finish.get('d1')!();
    await first;
    const second = h.deliver([message('mine', 2)]);
    // "At once": done before a timer as long as the stall, armed first, fires (timers fire in order).
    const stalled = new Promise((r) => setTimeout(() => r('waited'), 100));
    expect(await Promise.race([h.deliver([message('other', 3)]).then(() => 'published'), stalled])).toBe(
      'published',
    );
    expect(h.published).toEqual(['d3']);
    h.finish.get('d2')!();
    await second;
  });
});
