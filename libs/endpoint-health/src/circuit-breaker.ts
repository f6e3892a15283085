import { AttemptWindow } from './attempt-window';

/** Project config `circuit_breaker`; every member optional (defaults in circuit-breaker.ts). */
export interface CircuitBreakerSettings {
  min_requests?: number;
  failure_rate?: number;
  consecutive_failures?: number;
  probe_interval_seconds?: number;
  disable_after_seconds?: number;
}

export const CIRCUIT_BREAKER_DEFAULTS: Required<CircuitBreakerSettings> = {
  min_requests: 10,
  failure_rate: 70,
  consecutive_failures: 10,
  probe_interval_seconds: 30,
  disable_after_seconds: 86_400,
};

export type BreakerState = 'closed' | 'open';

/** Before a send: go ahead, go ahead as the one probe, or wait until `untilMs`. */
export type BreakerCheck = { kind: 'send' } | { kind: 'probe' } | { kind: 'wait'; untilMs: number };

/** What a recorded attempt changed, for notifications and meta events. */
export type BreakerTransition = { kind: 'none' } | { kind: 'opened'; reason: string } | { kind: 'closed' };

/**
 * One endpoint's breaker. Opens when the last 5 minutes hold at least `min_requests` attempts with
 * `failure_rate` % or more failed, or after `consecutive_failures` failures in a row. While open,
 * deliveries wait without spending retries and one probe goes out every `probe_interval_seconds`;
 * a successful probe closes it. Pure: the caller passes the clock.
 */
export class CircuitBreaker {
  /** Attempts the trip decision looks at; cleared when a probe closes the breaker. */
  private readonly window = new AttemptWindow();
  /** All attempts of the last 5 minutes, for `failure_rate` (not cleared on close). */
  private readonly stats = new AttemptWindow();
  private consecutive = 0;
  private openedAt: number | null = null;
  private nextProbeAt = 0;

  constructor(private settings: Required<CircuitBreakerSettings> = CIRCUIT_BREAKER_DEFAULTS) {}

  configure(settings: CircuitBreakerSettings | undefined): void {
    this.settings = { ...CIRCUIT_BREAKER_DEFAULTS, ...settings };
  }

  get state(): BreakerState {
    return this.openedAt === null ? 'closed' : 'open';
  }

  check(nowMs: number): BreakerCheck {
    if (this.openedAt === null) return { kind: 'send' };
    // A probe that never reported back (crash, lost message) is given up after one interval.
    if (nowMs >= this.nextProbeAt) {
      this.nextProbeAt = nowMs + this.probeMs();
      return { kind: 'probe' };
    }
    return { kind: 'wait', untilMs: Math.max(this.nextProbeAt, nowMs + 1000) };
  }

  record(success: boolean, nowMs: number): BreakerTransition {
    this.window.record(success, nowMs);
    this.stats.record(success, nowMs);
    this.consecutive = success ? 0 : this.consecutive + 1;
    if (this.openedAt !== null) {
      if (success) {
        this.openedAt = null;
        this.window.clear();
        return { kind: 'closed' };
      }
      this.nextProbeAt = nowMs + this.probeMs();
      return { kind: 'none' };
    }
    const reason = this.tripReason(nowMs);
    if (!reason) return { kind: 'none' };
    this.openedAt = nowMs;
    this.nextProbeAt = nowMs + this.probeMs();
    return { kind: 'opened', reason };
  }

  /** With the project's `disable_endpoint`: open for `disable_after_seconds` → make it inactive. */
  shouldDisable(nowMs: number): boolean {
    return this.openedAt !== null && nowMs - this.openedAt >= this.settings.disable_after_seconds * 1000;
  }

  failureRate(nowMs: number): number {
    return this.stats.failureRate(nowMs);
  }

  private tripReason(nowMs: number): string | undefined {
    const s = this.settings;
    if (this.consecutive >= s.consecutive_failures) return `${this.consecutive} consecutive failures`;
    const { total, failed } = this.window.totals(nowMs);
    if (total >= s.min_requests && (failed / total) * 100 >= s.failure_rate) {
      return `${Math.round((failed / total) * 100)} % of ${total} attempts failed in the last 5 minutes`;
    }
    return undefined;
  }

  private probeMs(): number {
    return this.settings.probe_interval_seconds * 1000;
  }
}
