import type { GateContext } from '@hookrail/delivery';
import type { EndpointDoc, ProjectDoc } from '@hookrail/store';
import { createLogger, Metrics } from '@hookrail/telemetry';
import type { EndpointDisabler } from './endpoint-disabler';
import { EndpointHealth } from './endpoint-health';

// The side effects (documents, notifications) are the integration tests' business; here they
// only need to succeed, so the breaker logic and the gauge can be looked at alone.
const disabler = {
  breakerOpened: async () => undefined,
  writeBreakerState: async () => undefined,
  writeFailureRate: async () => undefined,
  disable: async () => undefined,
  alert: async () => undefined,
} as unknown as EndpointDisabler;

const project = { config: { circuit_breaker: { consecutive_failures: 3 } } } as unknown as ProjectDoc;
const context = (endpointId: string): GateContext =>
  ({
    endpoint: { _id: endpointId, project_id: 'p1', circuit_breaker: null } as unknown as EndpointDoc,
    subscription: null,
    project,
  }) as GateContext;
const failed = { kind: 'response' as const, status: 500, headers: {}, body: '', latencyMs: 1 };
const ok = { ...failed, status: 200 };

async function breakerCounts(metrics: Metrics): Promise<Record<string, number>> {
  const { values } = await metrics.registry.getSingleMetric('hookrail_circuit_breakers')!.get();
  return Object.fromEntries(values.map((v) => [v.labels.state, v.value]));
}

describe('EndpointHealth breaker gauge', () => {
  it('counts the breakers this replica holds by state at each scrape', async () => {
    const metrics = new Metrics('test', { defaultMetrics: false });
    const health = new EndpointHealth(disabler, createLogger({ service: 'test', level: 'silent' }), metrics);
    await health.afterAttempt(context('healthy'), ok, 1_000);
    for (let i = 0; i < 3; i++) await health.afterAttempt(context('failing'), failed, 1_000 + i);
    expect(await breakerCounts(metrics)).toEqual({ closed: 1, open: 1, half_open: 0 });

    // The open breaker's probe slot comes: the gate lets one probe through and shows half_open.
    const probe = await health.circuitBreakerGate({ ...context('failing'), now: 60_000 } as GateContext);
    expect(probe).toEqual({ kind: 'send' });
    expect(await breakerCounts(metrics)).toEqual({ closed: 1, open: 0, half_open: 1 });

    await health.afterAttempt(context('failing'), ok, 60_001);
    expect(await breakerCounts(metrics)).toEqual({ closed: 2, open: 0, half_open: 0 });
  });
});
