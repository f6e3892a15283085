import { lagRecorder, type Behind, type StreamLag } from './change-stream-lag';

describe('lagRecorder', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const recorder = (behind?: () => Promise<Behind>) => {
    const written: StreamLag[] = [];
    const r = lagRecorder({ everyMs: 1000, behind, write: async (lag) => void written.push(lag) });
    return { r, written };
  };

  it('writes the newest lag every period while the stream consumes, and nothing before', async () => {
    const { r, written } = recorder();
    r.seconds(3);
    await jest.advanceTimersByTimeAsync(1000);
    expect(written).toEqual([]);
    r.state('consuming');
    r.seconds(2.5);
    await jest.advanceTimersByTimeAsync(1000);
    r.seconds(0);
    await jest.advanceTimersByTimeAsync(1000);
    expect(written).toEqual([
      { lag_seconds: 2.5, behind_bytes: null, behind_changes: null },
      { lag_seconds: 0, behind_bytes: null, behind_changes: null },
    ]);
    r.stop();
  });

  it("adds what the database says of how far behind (postgres's bytes, mongodb's changes), and writes without it when the query fails", async () => {
    const behind = jest.fn<Promise<Behind>, []>().mockResolvedValueOnce({ behind_bytes: 4096 });
    behind.mockResolvedValueOnce({ behind_changes: 12 });
    behind.mockRejectedValueOnce(new Error('connection refused'));
    const { r, written } = recorder(behind);
    r.state('consuming');
    r.seconds(1);
    await jest.advanceTimersByTimeAsync(3000);
    expect(written).toEqual([
      { lag_seconds: 1, behind_bytes: 4096, behind_changes: null },
      { lag_seconds: 1, behind_bytes: null, behind_changes: 12 },
      { lag_seconds: 1, behind_bytes: null, behind_changes: null },
    ]);
    r.stop();
  });

  it('stops writing when the stream leaves consuming or is stopped', async () => {
    const { r, written } = recorder();
    r.state('consuming');
    r.seconds(1);
    r.state('resume_lost');
    await jest.advanceTimersByTimeAsync(1000);
    r.state('consuming');
    r.stop();
    await jest.advanceTimersByTimeAsync(3000);
    expect(written).toEqual([]);
  });
});
