import { endpointAddress } from '@hookrail/api-contract';
import type { Publisher } from '@hookrail/bus';
import { toTimestamp, type ProjectId } from '@hookrail/domain';
import { boundedLru } from '@hookrail/toolbox';
import type { EndpointNotifier } from '@hookrail/notify';
import type { EndpointBreakerState, EndpointDoc, Store, SubscriptionDoc } from '@hookrail/store';
import type { Logger, Metrics } from '@hookrail/telemetry';

/** A second disable of the same endpoint within this window (stale cached status) is a no-op. */
const DISABLE_DEDUPE_MS = 60_000;

/**
 * The side effects of endpoint health: making an endpoint `inactive` (and telling caches, the
 * meta-event service and the endpoint's owners), alerts, and the stored `failure_rate` and breaker state.
 */
export class EndpointDisabler {
  // Only the dedupe window matters: entries expire after it, and the count is bounded.
  private readonly recentlyDisabled = boundedLru<string, number>(10_000, { ttl: DISABLE_DEDUPE_MS });
  private readonly m;

  constructor(
    private readonly deps: {
      store: Store;
      publisher: Publisher;
      notifier: EndpointNotifier;
      logger: Logger;
      metrics: Metrics;
      now?: () => number;
      /** Tells the caches (this replica's at once, the others' through the config version). */
      invalidate?: (projectId: ProjectId) => void | Promise<unknown>;
    },
  ) {
    this.m = {
      disabled: deps.metrics.counter('hookrail_endpoints_disabled_total', 'Endpoints made inactive', [
        'cause',
      ]),
      breaker: deps.metrics.counter('hookrail_circuit_breaker_opened_total', 'Circuit breakers opened'),
      alerts: deps.metrics.counter('hookrail_endpoint_alerts_total', 'alert_config alerts sent'),
    };
  }

  async disable(endpoint: EndpointDoc, reason: string): Promise<void> {
    const now = this.now();
    const last = this.recentlyDisabled.get(endpoint._id);
    if (endpoint.status === 'inactive' || (last !== undefined && now - last < DISABLE_DEDUPE_MS)) return;
    this.recentlyDisabled.set(endpoint._id, now);
    const log = { project_id: endpoint.project_id, endpoint_id: endpoint._id };
    const updated = await this.deps.store.endpoints.update(endpoint.project_id, endpoint._id, {
      status: 'inactive',
      status_reason: `disabled: ${reason}`,
    });
    if (!updated) return; // deleted meanwhile
    await this.deps.invalidate?.(endpoint.project_id);
    this.deps.logger.warn({ ...log, reason }, 'endpoint disabled');
    this.m.disabled.inc({ cause: reason.includes('410') ? 'http_410' : 'circuit_breaker' });
    await Promise.all([
      this.deps.publisher.publish('config', [
        { project_id: endpoint.project_id, resource: 'endpoint', id: endpoint._id, op: 'updated' },
      ]),
      this.deps.publisher.publish('meta', [
        {
          project_id: endpoint.project_id,
          event_type: 'endpoint.disabled',
          data: {
            uid: endpoint._id,
            name: endpoint.name,
            url: endpointAddress(endpoint),
            status: 'inactive',
            reason,
          },
          occurred_at: toTimestamp(now),
        },
      ]),
      this.deps.notifier.notify(updated, { kind: 'disabled', reason }),
    ]);
  }

  async breakerOpened(endpoint: EndpointDoc, reason: string): Promise<void> {
    this.m.breaker.inc();
    this.deps.logger.warn(
      { project_id: endpoint.project_id, endpoint_id: endpoint._id, reason },
      'circuit breaker opened',
    );
  }

  async alert(
    endpoint: EndpointDoc,
    subscription: SubscriptionDoc,
    config: { count: number; threshold: string },
  ): Promise<void> {
    this.m.alerts.inc();
    await Promise.all([
      this.deps.publisher.publish('meta', [
        {
          project_id: endpoint.project_id,
          event_type: 'endpoint.alert',
          data: {
            endpoint_id: endpoint._id,
            subscription_id: subscription._id,
            failures: config.count,
            threshold: config.threshold,
            failure_rate: endpoint.failure_rate,
          },
          occurred_at: toTimestamp(this.now()),
        },
      ]),
      this.deps.notifier.notify(endpoint, {
        kind: 'alert',
        failures: config.count,
        threshold: config.threshold,
        subscriptionName: subscription.name,
      }),
    ]);
  }

  /** The breaker state shown by the API; caches see it on their next refresh. */
  async writeBreakerState(endpoint: EndpointDoc, state: EndpointBreakerState): Promise<void> {
    await this.deps.store.endpoints.setBreakerState(endpoint.project_id, endpoint._id, state);
  }

  /** The caller (EndpointHealth) writes only a changed rate. */
  async writeFailureRate(endpoint: EndpointDoc, rate: number): Promise<void> {
    await this.deps.store.endpoints.update(endpoint.project_id, endpoint._id, { failure_rate: rate });
  }

  private now(): number {
    return (this.deps.now ?? Date.now)();
  }
}
