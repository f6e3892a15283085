import { ANSWER_WAIT_MS, Reachability, UNREACHABLE_AFTER_MS } from './reachability';

/** A ping the test answers by hand, with the clock it reads. */
function manualPing() {
  const pings: { resolve: () => void; reject: (e: Error) => void }[] = [];
  let clock = 0;
  const reachability = new Reachability(
    () => new Promise<void>((resolve, reject) => pings.push({ resolve, reject })),
    () => clock,
  );
  return { reachability, pings, advance: (ms: number) => void (clock += ms) };
}

describe('telling a busy database from an unreachable one', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  /** A check, with the timers it waits on run out. */
  const check = async (r: Reachability) => {
    const verdict = r.check();
    await jest.advanceTimersByTimeAsync(ANSWER_WAIT_MS);
    return verdict;
  };

  it('an answer is reachable, an error (refused, cut) unreachable at once', async () => {
    const { reachability, pings } = manualPing();
    const first = reachability.check();
    pings[0].resolve();
    expect(await first).toBe(true);
    const second = reachability.check();
    pings[1].reject(new Error('connection refused'));
    expect(await second).toBe(false);
  });

  it('a slow answer keeps the last verdict, with one ping in flight, until UNREACHABLE_AFTER_MS', async () => {
    const { reachability, pings, advance } = manualPing();
    const ok = reachability.check();
    pings[0].resolve();
    expect(await ok).toBe(true);
    expect(await check(reachability)).toBe(true); // ping 2 waiting: busy, not unreachable
    advance(UNREACHABLE_AFTER_MS - 1);
    expect(await check(reachability)).toBe(true);
    expect(pings).toHaveLength(2); // no ping piled up behind the slow one
    advance(1);
    expect(await check(reachability)).toBe(false); // stopped without closing its connections
    pings[1].resolve();
    await Promise.resolve();
    const back = reachability.check();
    pings[2].resolve();
    expect(await back).toBe(true);
  });

  it('stays unreachable while a ping after an outage is still waiting', async () => {
    const { reachability, pings } = manualPing();
    const down = reachability.check();
    pings[0].reject(new Error('connection reset'));
    expect(await down).toBe(false);
    expect(await check(reachability)).toBe(false);
  });
});
