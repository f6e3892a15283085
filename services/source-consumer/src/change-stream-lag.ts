/** How far a change stream is behind, as its health records it. */
export interface StreamLag {
  lag_seconds: number | null;
  behind_bytes: number | null;
  behind_changes: number | null;
}

/** What the database says of how far behind the stream is (each kind gives what it can). */
export type Behind = Partial<Pick<StreamLag, 'behind_bytes' | 'behind_changes'>>;

export interface LagRecorderOptions {
  /** How often the lag is written while the stream reads. */
  everyMs: number;
  /** Asked at each write: Postgres's WAL bytes behind, MongoDB's changes behind (libs/change-streams). */
  behind?: () => Promise<Behind>;
  write(lag: StreamLag): Promise<void>;
}

/**
 * Keeps a running change stream's lag in its stored health: the newest lag in seconds the stream
 * reported, and for Postgres the WAL bytes behind, written every `everyMs` while the stream
 * consumes (never per change: the figures are for the source's page, the metric is live). A state
 * write clears the stored lag (libs/store), so the next tick writes it again.
 */
export function lagRecorder(opts: LagRecorderOptions) {
  let seconds: number | null = null;
  let consuming = false;
  let busy = false;
  const tick = async () => {
    if (!consuming || busy) return;
    busy = true;
    try {
      const behind = opts.behind ? await opts.behind().catch((): Behind => ({})) : {};
      const lag = { lag_seconds: seconds, behind_bytes: null, behind_changes: null, ...behind };
      if (consuming) await opts.write(lag);
    } catch {
      // Best effort: the next tick writes it again.
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void tick(), opts.everyMs);
  timer.unref();
  return {
    seconds(value: number) {
      seconds = value;
    },
    state(state: string) {
      consuming = state === 'consuming';
    },
    stop() {
      clearInterval(timer);
      consuming = false;
    },
  };
}
