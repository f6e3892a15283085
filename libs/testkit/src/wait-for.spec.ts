import { waitWhileProgressing } from './wait-for';

describe('waitWhileProgressing', () => {
  it('keeps waiting past the stall bound while progress rises, and returns once done', async () => {
    let polls = 0;
    const started = Date.now();
    await waitWhileProgressing(
      'thirty polls',
      () => ++polls > 30,
      () => polls,
      {
        stallMs: 50,
        timeoutMs: 60_000,
        intervalMs: 10,
      },
    );
    expect(polls).toBe(31);
    expect(Date.now() - started).toBeGreaterThan(50);
  });

  it('fails once progress has not risen for the stall bound', async () => {
    await expect(
      waitWhileProgressing(
        'never',
        () => false,
        () => 7,
        { stallMs: 100, timeoutMs: 60_000, intervalMs: 10 },
      ),
    ).rejects.toThrow('timed out waiting for never: no progress for 100 ms (at 7)');
  });

  it('fails after the overall bound even while progress rises', async () => {
    let n = 0;
    await expect(
      waitWhileProgressing(
        'forever',
        () => false,
        () => ++n,
        { stallMs: 60_000, timeoutMs: 100, intervalMs: 10 },
      ),
    ).rejects.toThrow('timed out waiting for forever (100 ms)');
  });
});
