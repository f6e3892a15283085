import { watchTimers } from './timer-watch';

describe('watchTimers', () => {
  it('counts the timers its code starts, also later on, until they fire or are cleared', async () => {
    const timers = watchTimers();
    const outside = setTimeout(() => undefined, 60_000); // not started by the watched code
    try {
      const [cleared, later] = await timers.run(async () => {
        const first = setTimeout(() => undefined, 60_000);
        await new Promise((r) => setTimeout(r, 5)); // fires: no longer pending
        return [first, setTimeout(() => undefined, 60_000)];
      });
      expect(await timers.pending()).toBe(2);
      clearTimeout(cleared);
      expect(await timers.pending()).toBe(1);
      clearTimeout(later);
      expect(await timers.pending()).toBe(0);
    } finally {
      timers.stop();
      clearTimeout(outside);
    }
  });
});
