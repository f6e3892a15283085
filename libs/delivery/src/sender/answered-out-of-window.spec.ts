import { AnsweredOutOfWindow } from './answered-out-of-window';

/** A message's handling that ends its attempt at once and then waits for `record`. */
function handling() {
  let record!: () => void;
  const recorded = new Promise<void>((resolve) => (record = resolve));
  const left = jest.fn();
  return { left, record, handle: (ended: () => void) => (ended(), recorded) };
}

describe('AnsweredOutOfWindow', () => {
  it('takes an answered message out of the window while its record waits, up to max', async () => {
    const out = new AnsweredOutOfWindow(2);
    const messages = [handling(), handling(), handling()];
    const runs = messages.map((m) => out.run(m.left, m.handle));
    expect(messages.map((m) => m.left.mock.calls.length)).toEqual([1, 1, 0]);
    expect(out.size).toBe(2);
    messages.forEach((m) => m.record());
    await Promise.all(runs);
    expect(out.size).toBe(0);
  });

  it('frees its place when a record is written, for the next answered message', async () => {
    const out = new AnsweredOutOfWindow(1);
    const first = handling();
    const run = out.run(first.left, first.handle);
    first.record();
    await run;
    const next = handling();
    void out.run(next.left, next.handle);
    expect(next.left).toHaveBeenCalledTimes(1);
    expect(out.size).toBe(1);
  });

  it('frees its place when the handling fails, and passes the failure on', async () => {
    const out = new AnsweredOutOfWindow(1);
    const left = jest.fn();
    await expect(
      out.run(left, async (ended) => {
        ended();
        throw new Error('write failed');
      }),
    ).rejects.toThrow('write failed');
    expect(left).toHaveBeenCalledTimes(1);
    expect(out.size).toBe(0);
  });

  it('counts a message once however often its attempt ends, and never one that made none', async () => {
    const out = new AnsweredOutOfWindow(5);
    const left = jest.fn();
    let record!: () => void;
    const run = out.run(left, (ended) => {
      ended();
      ended();
      return new Promise<void>((resolve) => (record = resolve));
    });
    const unsent = jest.fn();
    await out.run(unsent, async () => undefined);
    expect(left).toHaveBeenCalledTimes(1);
    expect(unsent).not.toHaveBeenCalled();
    expect(out.size).toBe(1);
    record();
    await run;
    expect(out.size).toBe(0);
  });
});
