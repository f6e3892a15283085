import { errorMessage, isRetriable, UnavailableError } from '@hookrail/domain';
import pTimeout from 'p-timeout';

export interface PublishGuardOptions {
  /** How long an accepting caller waits for Kafka's acknowledgement. */
  timeoutMs: number;
  /** While Kafka is unavailable, one publish is let through this often to find out whether it is back. */
  probeIntervalMs?: number;
  now?: () => number;
  /** Told when Kafka becomes unavailable (with the cause) and when it is available again. */
  onChange?: (available: boolean, cause?: string) => void;
}

/**
 * Bounds how long a caller that accepts an event (events API, HTTP ingest, broker sources) waits
 * for Kafka. A publish that is not acknowledged within `timeoutMs`, or fails with a retriable
 * error, marks Kafka unavailable: from then on callers fail at once (UnavailableError, so the
 * caller answers 503 or leaves the broker message unacknowledged) instead of each waiting out the
 * producer's own retries, and one publish every `probeIntervalMs` tries again; the first that is
 * acknowledged makes Kafka available again. Only an acknowledged publish resolves, so an event
 * is never reported accepted unless Kafka holds it; one that times out may still be stored later
 * (the sender sends it again; idempotency keys make the repeat a duplicate).
 */
export class PublishGuard {
  private readonly timeoutMs: number;
  private readonly probeIntervalMs: number;
  private readonly now: () => number;
  private down: string | null = null;
  private nextProbeAt = 0;
  private probing = false;

  constructor(private readonly opts: PublishGuardOptions) {
    this.timeoutMs = opts.timeoutMs;
    this.probeIntervalMs = opts.probeIntervalMs ?? 1000;
    this.now = opts.now ?? Date.now;
  }

  /** A guard that logs Kafka becoming unavailable and available again. */
  static logging(
    timeoutMs: number,
    logger: { warn: (o: object, msg: string) => void; info: (msg: string) => void },
  ): PublishGuard {
    return new PublishGuard({
      timeoutMs,
      onChange: (available, cause) =>
        available
          ? logger.info('kafka recovered: events are accepted again')
          : logger.warn({ cause }, 'kafka unavailable: events are refused (503) until it acknowledges again'),
    });
  }

  get available(): boolean {
    return this.down === null;
  }

  async run(send: () => Promise<void>): Promise<void> {
    let probe = false;
    if (this.down !== null) {
      if (this.probing || this.now() < this.nextProbeAt)
        throw new UnavailableError(`kafka is unavailable (${this.down})`);
      probe = this.probing = true;
    }
    try {
      // The publish may still settle after the timeout: its outcome is no longer anyone's concern.
      await pTimeout(send(), {
        milliseconds: this.timeoutMs,
        fallback: () => {
          throw new UnavailableError(`kafka did not acknowledge within ${this.timeoutMs} ms`);
        },
      });
    } catch (err) {
      // A message Kafka could never take (too large) says nothing about Kafka's health.
      if (!isRetriable(err)) throw err;
      this.markDown(errorMessage(err));
      throw err instanceof UnavailableError ? err : new UnavailableError(errorMessage(err), err);
    } finally {
      if (probe) this.probing = false;
    }
    if (this.down !== null) {
      this.down = null;
      this.opts.onChange?.(true);
    }
  }

  private markDown(cause: string): void {
    this.nextProbeAt = this.now() + this.probeIntervalMs;
    if (this.down === null) this.opts.onChange?.(false, cause);
    this.down = cause;
  }
}
