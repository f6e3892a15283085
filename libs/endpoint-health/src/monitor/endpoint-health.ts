import type { Gate, GateContext } from '@hookrail/delivery';
import type { AttemptResult } from '@hookrail/retry';
import { AlertThreshold } from '../alert-threshold';
import { CircuitBreaker } from '../circuit-breaker';
import { deliveryRateLimits, RateLimiter } from '../rate-limiter';
import { errorMessage } from '@hookrail/domain';
import { boundedLru } from '@hookrail/toolbox';
import type { EndpointBreakerState, EndpointDoc } from '@hookrail/store';
import type { Logger, Metrics } from '@hookrail/telemetry';
import type { EndpointDisabler } from './endpoint-disabler';

/**
 * `failure_rate` is written back at most this often per endpoint, and on every breaker change; an
 * attempt that comes sooner is written by one trailing write when the interval ends, so the stored
 * rate is the one after the latest attempt within this interval.
 */
const FAILURE_RATE_WRITE_MS = 10_000;
/** Sooner when the outcome turned (a success after a failure, or the reverse), at most this often. */
const FAILURE_RATE_TURN_MS = 1_000;

/**
 * The health of the endpoints this dispatcher owns (deliveries are keyed by endpoint, so the state
 * is local and exact): rate limits, the circuit breaker, `failure_rate`, `alert_config` alerts,
 * and disabling (breaker open past `disable_after_seconds` with `disable_endpoint`, or HTTP 410).
 * The rules and their defaults: docs/decisions.md, "Endpoint health and manual operations".
 */
export class EndpointHealth {
  private readonly breakers = boundedLru<string, CircuitBreaker>(100_000);
  private readonly limiter = new RateLimiter();
  private readonly alerts = new AlertThreshold();
  private readonly rateWrittenAt = boundedLru<string, number>(100_000);
  /** Per endpoint: the last attempt's outcome and time, the rate last written, a pending trailing write. */
  private readonly lastAttempt = boundedLru<string, { success: boolean; atMs: number }>(100_000);
  private readonly rateWritten = boundedLru<string, number>(100_000);
  private readonly trailing = new Map<string, ReturnType<typeof setTimeout>>();
  /** The breaker state last written to each endpoint document, so only changes are written. */
  private readonly shownState = boundedLru<string, EndpointBreakerState['state']>(100_000);

  constructor(
    private readonly disabler: EndpointDisabler,
    private readonly logger: Logger,
    metrics: Metrics,
  ) {
    // Counted at each scrape over the breakers this replica holds (deliveries are keyed by
    // endpoint, so each endpoint's breaker lives on one replica and the sum over replicas is exact).
    metrics.gauge(
      'hookrail_circuit_breakers',
      'Circuit breakers of the endpoints this dispatcher sends to, by state',
      ['state'],
      (gauge) => {
        const counts: Record<EndpointBreakerState['state'], number> = { closed: 0, open: 0, half_open: 0 };
        for (const [endpointId, breaker] of this.breakers.entries())
          counts[this.shownState.get(endpointId) ?? breaker.state] += 1;
        for (const [state, n] of Object.entries(counts)) gauge.set({ state }, n);
      },
    );
  }

  /** Open breaker: the delivery waits (no retry spent) until the next probe slot. */
  readonly circuitBreakerGate: Gate = async ({ endpoint, project, now }) => {
    const breaker = this.breaker(endpoint._id, project);
    if (project.config.disable_endpoint && breaker.shouldDisable(now)) {
      await this.disabler.disable(endpoint, 'its circuit breaker stayed open past disable_after_seconds');
      return { kind: 'hold', untilMs: now + 30_000, reason: 'paused', detail: 'endpoint is inactive' };
    }
    const check = breaker.check(now);
    if (check.kind === 'probe') await this.show(endpoint, 'half_open', 'a probe delivery is on its way', now);
    return check.kind === 'wait'
      ? { kind: 'hold', untilMs: check.untilMs, reason: 'circuit_open', detail: 'circuit breaker open' }
      : { kind: 'send' };
  };

  /** Must be the last gate: an allowed delivery takes its slot. */
  readonly rateLimitGate: Gate = ({ endpoint, subscription, now }) => {
    const d = this.limiter.take(deliveryRateLimits(endpoint, subscription), now);
    return d.kind === 'allow'
      ? { kind: 'send' }
      : { kind: 'hold', untilMs: d.untilMs, reason: 'rate_limited', detail: `rate limit of ${d.key}` };
  };

  /**
   * After every attempt that went on the wire, once its outcome is recorded. Never throws: the
   * delivery is done; a failed side effect (a stats write, a notification) is logged and the next
   * attempt tries again.
   */
  async afterAttempt(ctx: GateContext, result: AttemptResult, nowMs = Date.now()): Promise<void> {
    if (result.kind === 'not_sent') return; // nothing reached the endpoint: says nothing about its health
    const { endpoint, subscription, project } = ctx;
    const success = result.kind === 'response' && result.status >= 200 && result.status < 300;
    const breaker = this.breaker(endpoint._id, project);
    const transition = breaker.record(success, nowMs);
    // One after the other: the test server's findOneAndUpdate is not atomic, so two concurrent
    // writes to the same endpoint (failure_rate, status) could lose one of them.
    const work: (() => Promise<unknown>)[] = [];
    if (transition.kind === 'opened')
      work.push(() => this.disabler.breakerOpened(endpoint, transition.reason));
    if (transition.kind !== 'none' || this.shown(endpoint) === 'half_open') {
      const reason =
        transition.kind === 'opened'
          ? transition.reason
          : breaker.state === 'open'
            ? 'the probe failed'
            : null;
      work.push(() => this.show(endpoint, breaker.state, reason, nowMs));
    }
    const previous = this.lastAttempt.get(endpoint._id);
    this.lastAttempt.set(endpoint._id, { success, atMs: nowMs });
    const sinceWrite = nowMs - (this.rateWrittenAt.get(endpoint._id) ?? -Infinity);
    const turned = previous !== undefined && previous.success !== success;
    if (
      transition.kind !== 'none' ||
      sinceWrite >= FAILURE_RATE_WRITE_MS ||
      (turned && sinceWrite >= FAILURE_RATE_TURN_MS)
    ) {
      const rate = breaker.failureRate(nowMs);
      work.push(() => this.writeRate(endpoint, rate, nowMs));
    } else this.writeRateLater(endpoint, breaker, FAILURE_RATE_WRITE_MS - sinceWrite);
    if (result.kind === 'response' && result.status === 410) {
      work.push(() => this.disabler.disable(endpoint, 'the endpoint answered 410 Gone'));
    }
    if (!success && subscription?.alert_config) {
      if (this.alerts.recordFailure(`subscription:${subscription._id}`, subscription.alert_config, nowMs)) {
        const config = subscription.alert_config;
        work.push(() => this.disabler.alert(endpoint, subscription, config));
      }
    }
    for (const step of work) {
      try {
        await step();
      } catch (err) {
        this.logger.warn(
          { project_id: endpoint.project_id, endpoint_id: endpoint._id, err: errorMessage(err) },
          'endpoint health side effect failed',
        );
      }
    }
  }

  /** Writes the endpoint's failure rate when it differs from the one last written. */
  private async writeRate(endpoint: EndpointDoc, rate: number, nowMs: number): Promise<void> {
    this.rateWrittenAt.set(endpoint._id, nowMs);
    const pending = this.trailing.get(endpoint._id);
    if (pending) clearTimeout(pending);
    this.trailing.delete(endpoint._id);
    if ((this.rateWritten.get(endpoint._id) ?? endpoint.failure_rate) === rate) return;
    this.rateWritten.set(endpoint._id, rate);
    await this.disabler.writeFailureRate(endpoint, rate);
  }

  /**
   * One write, when the interval ends, of the rate after the latest attempt then (not at the
   * timer's time: an attempt-less window says nothing new). At most one pending per endpoint.
   */
  private writeRateLater(endpoint: EndpointDoc, breaker: CircuitBreaker, delayMs: number): void {
    if (this.trailing.has(endpoint._id)) return;
    const timer = setTimeout(
      () => {
        this.trailing.delete(endpoint._id);
        const last = this.lastAttempt.get(endpoint._id);
        if (!last) return;
        // in attempt time, when the interval ended
        const at = Math.max(last.atMs, (this.rateWrittenAt.get(endpoint._id) ?? 0) + FAILURE_RATE_WRITE_MS);
        this.writeRate(endpoint, breaker.failureRate(last.atMs), at).catch((err: unknown) =>
          this.logger.warn(
            { project_id: endpoint.project_id, endpoint_id: endpoint._id, err: errorMessage(err) },
            'endpoint failure rate write failed',
          ),
        );
      },
      Math.max(0, delayMs),
    );
    timer.unref?.();
    this.trailing.set(endpoint._id, timer);
  }

  private shown(endpoint: EndpointDoc): EndpointBreakerState['state'] {
    return this.shownState.get(endpoint._id) ?? endpoint.circuit_breaker?.state ?? 'closed';
  }

  /** Writes the breaker state to the endpoint when it differs from what was last shown. Never throws. */
  private async show(
    endpoint: EndpointDoc,
    state: EndpointBreakerState['state'],
    reason: string | null,
    nowMs: number,
  ): Promise<void> {
    if (this.shown(endpoint) === state) return;
    this.shownState.set(endpoint._id, state);
    try {
      await this.disabler.writeBreakerState(endpoint, { state, reason, since: new Date(nowMs) });
    } catch (err) {
      this.shownState.delete(endpoint._id);
      this.logger.warn(
        { project_id: endpoint.project_id, endpoint_id: endpoint._id, err: errorMessage(err) },
        'circuit breaker state not written',
      );
    }
  }

  private breaker(endpointId: string, project: GateContext['project']): CircuitBreaker {
    let b = this.breakers.get(endpointId);
    if (!b) this.breakers.set(endpointId, (b = new CircuitBreaker()));
    b.configure(project.config.circuit_breaker);
    return b;
  }
}
