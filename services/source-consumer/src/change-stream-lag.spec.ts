import { lagRecorder, type StreamLag } from './change-stream-lag';

describe('lagRecorder', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const recorder = (behindBytes?: () => Promise<number | null>) => {
    const written: StreamLag[] = [];
    const r = lagRecorder({ everyMs: 1000, behindBytes, write: async (lag) => void written.push(lag) });
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
      { lag_seconds: 2.5, behind_bytes: null },
      { lag_seconds: 0, behind_bytes: null },
    ]);
    r.stop();
  });

  it("adds postgres's bytes behind, and writes without them when the query fails", async () => {
    const bytes = jest.fn<Promise<number | null>, []>().mockResolvedValueOnce(4096);
    bytes.mockRejectedValueOnce(new Error('connection refused'));
    const { r, written } = recorder(bytes);
    r.state('consuming');
    r.seconds(1);
    await jest.advanceTimersByTimeAsync(2000);
    expect(written).toEqual([
      { lag_seconds: 1, behind_bytes: 4096 },
      { lag_seconds: 1, behind_bytes: null },
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
