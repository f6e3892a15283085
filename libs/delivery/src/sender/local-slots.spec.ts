import { LocalSlots } from './local-slots';

const tick = () => new Promise((r) => setImmediate(r));

/** Full slots (max 1, held by `key`) that have turned over once. */
function fullSlots(key: string, opts: { maxWaitMs: number; stallMs: number }) {
  const slots = new LocalSlots({ max: 1, ...opts });
  void slots.take(key);
  slots.release(key);
  void slots.take(key);
  return slots;
}

describe('LocalSlots', () => {
  it('takes free slots at once, and refuses at once while full slots are stalled', () => {
    const slots = new LocalSlots({ max: 2, maxWaitMs: 1000, stallMs: 50 });
    expect(slots.take('a')).toBe(true);
    expect(slots.take('a')).toBe(true);
    // None was ever released: the slots are stalled.
    expect(slots.take('a')).toBe(false);
    slots.release('a');
    expect(slots.take('b')).toBe(true);
  });

  it('lets a key that holds slots wait, handing released slots over in order', async () => {
    const slots = fullSlots('a', { maxWaitMs: 1000, stallMs: 50 });
    const order: string[] = [];
    const first = (slots.take('a') as Promise<boolean>).then((t) => (order.push('first'), t));
    const second = (slots.take('a') as Promise<boolean>).then((t) => (order.push('second'), t));
    slots.release('a');
    await tick();
    slots.release('a');
    await expect(Promise.all([first, second])).resolves.toEqual([true, true]);
    expect(order).toEqual(['first', 'second']);
  });

  it('does not make a key that holds no slot wait behind the others', () => {
    const slots = fullSlots('a', { maxWaitMs: 1000, stallMs: 50 });
    expect(slots.take('b')).toBe(false);
  });

  it('sends waiters away when no slot was released for stallMs, and after maxWaitMs', async () => {
    const stalled = fullSlots('a', { maxWaitMs: 10_000, stallMs: 30 });
    const t0 = Date.now();
    await expect(stalled.take('a')).resolves.toBe(false);
    expect(Date.now() - t0).toBeLessThan(1000);

    const slow = fullSlots('a', { maxWaitMs: 100, stallMs: 40 });
    // Released every 20 ms, never enough for the last waiter: it leaves at maxWaitMs.
    const waiters = Array.from({ length: 20 }, () => slow.take('a') as Promise<boolean>);
    const churn = setInterval(() => slow.release('a'), 20);
    const results = await Promise.all(waiters);
    clearInterval(churn);
    expect(results.filter(Boolean).length).toBeGreaterThan(0);
    expect(results[results.length - 1]).toBe(false);
  });
});
