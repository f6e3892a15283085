import { watchTimers } from '@hookrail/testkit';
import { InFlight } from './in-flight';

describe('InFlight', () => {
  it('admits up to its count and frees a slot when a message finishes', async () => {
    const slots = new InFlight(2);
    slots.started(10);
    slots.started(10);
    expect(slots.admits(1)).toBe(false);
    const freed = slots.slotFreed();
    slots.finished(10);
    await freed;
    expect(slots.admits(1)).toBe(true);
  });

  it('admits up to its bytes, and one message of any size when nothing is in flight', () => {
    const slots = new InFlight(100, 1000);
    expect(slots.admits(5000)).toBe(true); // alone: larger than the bound, still admitted
    slots.started(600);
    expect(slots.admits(400)).toBe(true);
    expect(slots.admits(401)).toBe(false);
    slots.started(400);
    expect(slots.admits(1)).toBe(false);
    slots.finished(600);
    expect(slots.admits(600)).toBe(true);
    slots.finished(400);
    expect(slots.admits(5000)).toBe(true);
  });

  it('settles at once when idle, when the last message finishes, or at the timeout', async () => {
    const slots = new InFlight(4);
    await slots.settled(10_000); // nothing in flight: no wait
    slots.started(1);
    const timers = watchTimers();
    const settled = timers.run(() => slots.settled(10_000));
    slots.finished(1);
    await settled;
    // A drain that ended early leaves no timer behind to hold the process open at shutdown.
    expect(await timers.pending()).toBe(0);
    timers.stop();
    slots.started(1);
    const t0 = Date.now();
    await slots.settled(30);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(25);
  });

  it('frees the place of a message that leaves, yet settles only once it is done', async () => {
    const slots = new InFlight(1);
    slots.started(1);
    const freed = slots.slotFreed();
    slots.left(1);
    await freed;
    expect(slots.admits(1)).toBe(true);
    slots.started(1);
    expect(slots.admits(1)).toBe(false);
    let settled = false;
    const settling = slots.settled(10_000).then(() => (settled = true));
    slots.finished(1); // the one in the window
    await new Promise((r) => setImmediate(r));
    expect(settled).toBe(false); // the one that left is still handled
    slots.finished(1, false);
    await settling;
    expect(settled).toBe(true);
  });

  it('takes a place again for a message that left and is retried, over the limit if need be', () => {
    const slots = new InFlight(1);
    slots.started(1);
    slots.left(1);
    slots.started(1);
    slots.reentered(1); // two in a window of one: the fetch loop waits until both are done
    expect(slots.admits(1)).toBe(false);
    slots.finished(1);
    expect(slots.admits(1)).toBe(false);
    slots.finished(1);
    expect(slots.admits(1)).toBe(true);
  });
});
