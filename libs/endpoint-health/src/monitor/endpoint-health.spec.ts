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

describe('EndpointHealth failure_rate written back', () => {
  // A breaker that does not open here: only the rate writes are looked at.
  const calm = { config: { circuit_breaker: { consecutive_failures: 1000, min_requests: 1000 } } };
  const setup = () => {
    const written: number[] = [];
    const recording = {
      ...disabler,
      writeFailureRate: async (_e: EndpointDoc, rate: number) => void written.push(rate),
    } as unknown as EndpointDisabler;
    const health = new EndpointHealth(
      recording,
      createLogger({ service: 'test', level: 'silent' }),
      new Metrics('test', { defaultMetrics: false }),
    );
    const base = context('ep');
    const ctx = {
      ...base,
      endpoint: { ...base.endpoint, failure_rate: 0 },
      project: calm,
    } as unknown as GateContext;
    return { health, written, ctx };
  };
  afterEach(() => jest.useRealTimers());

  it('writes the rate after a successful resend at once (3 failures then a success: 75, not a stale 100)', async () => {
    const { health, written, ctx } = setup();
    for (let i = 0; i < 3; i++) await health.afterAttempt(ctx, failed, 1_000 + i * 100);
    expect(written).toEqual([100]);
    await health.afterAttempt(ctx, ok, 3_000);
    expect(written).toEqual([100, 75]);
  });

  it('writes a rate held back by the interval once it ends, from the latest attempt, once per interval', async () => {
    jest.useFakeTimers();
    const { health, written, ctx } = setup();
    await health.afterAttempt(ctx, ok, 1_000);
    expect(written).toEqual([]); // 0 %, as stored
    await health.afterAttempt(ctx, failed, 1_500); // turned, but within 1 s of the last write
    await health.afterAttempt(ctx, failed, 1_800);
    expect(written).toEqual([]);
    await jest.advanceTimersByTimeAsync(10_000);
    expect(written).toEqual([67]);
    await health.afterAttempt(ctx, ok, 11_500);
    await health.afterAttempt(ctx, ok, 11_600);
    expect(written).toEqual([67]);
    await jest.advanceTimersByTimeAsync(10_000);
    expect(written).toEqual([67, 40]);
  });
});
