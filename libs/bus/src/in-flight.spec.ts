import { InFlight } from './in-flight';

describe('InFlight', () => {
  it('is full at its limit and frees a slot when a message finishes', async () => {
    const slots = new InFlight(2);
    slots.started();
    slots.started();
    expect(slots.full).toBe(true);
    const freed = slots.slotFreed();
    slots.finished();
    await freed;
    expect(slots.full).toBe(false);
  });

  it('settles at once when idle, when the last message finishes, or at the timeout', async () => {
    const slots = new InFlight(4);
    await slots.settled(10_000); // nothing in flight: no wait
    slots.started();
    const settled = slots.settled(10_000);
    slots.finished();
    await settled;
    slots.started();
    const t0 = Date.now();
    await slots.settled(30);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(25);
  });
});
