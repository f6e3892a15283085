import { atFixedRate, atMaxRate } from './load-shapes';

/** A send that answers after `ms`, recording how many were in flight at once and when each started. */
function slowSend(ms: number) {
  const state = { inFlight: 0, most: 0, sent: 0, startedAt: [] as number[] };
  const send = async () => {
    state.sent++;
    state.startedAt.push(Date.now());
    state.most = Math.max(state.most, ++state.inFlight);
    await new Promise((r) => setTimeout(r, ms));
    state.inFlight--;
  };
  return { send, state };
}

describe('atMaxRate', () => {
  it('sends exactly `count` events, never more than `connections` at once', async () => {
    const { send, state } = slowSend(5);
    await atMaxRate(send, 50, 8);
    expect(state.sent).toBe(50);
    expect(state.most).toBe(8);
    expect(state.inFlight).toBe(0);
  });

  it('sends as many as asked when there are more connections than events', async () => {
    const { send, state } = slowSend(1);
    await atMaxRate(send, 3, 64);
    expect(state.sent).toBe(3);
  });
});

describe('atFixedRate', () => {
  it('sends `rate` a second on schedule, without waiting for answers, and ends with the last answer', async () => {
    const { send, state } = slowSend(300);
    const t0 = Date.now();
    await atFixedRate(send, 50, 0.4);
    const elapsed = Date.now() - t0;

    expect(state.sent).toBe(20);
    // Event i is due at i * 20 ms: none goes early, and the 300 ms answers did not hold the next.
    state.startedAt.forEach((at, i) => expect(at - t0).toBeGreaterThanOrEqual(i * 20 - 1));
    expect(state.most).toBeGreaterThanOrEqual(5);
    expect(elapsed).toBeGreaterThanOrEqual(380 + 300 - 1);
    expect(state.inFlight).toBe(0);
  });
});
