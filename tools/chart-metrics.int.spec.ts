import type { RunningService } from '@hookrail/runtime';
import { startTestService, testConfig, uniquePrefix } from '@hookrail/testkit';
import { definition as gateway } from '../services/api-gateway/src/service';
import { definition as dispatcher } from '../services/dispatcher/src/service';
import { definition as ingest } from '../services/ingest/src/service';
import { definition as metaEvent } from '../services/meta-event/src/service';
import { definition as retryScheduler } from '../services/retry-scheduler/src/service';
import { definition as sourceConsumer } from '../services/source-consumer/src/service';
import { dashboardExprs, ruleExprs, usedMetrics } from './chart-queries';

jest.setTimeout(120_000);

/**
 * Every metric the chart's dashboard and alerts query is exported on `/metrics` by a running
 * service (the six started here on the real servers), so a renamed or dropped metric cannot leave
 * a silent panel or an alert that never fires. (tools/chart-observability.spec.ts checks the
 * labels against the registrations in the code.)
 */
describe('the dashboard and the alerts query metrics the running services export', () => {
  const services: { name: string; svc: RunningService }[] = [];
  const exported = new Map<string, string[]>();

  beforeAll(async () => {
    const env = { HOOKRAIL_KAFKA_TOPIC_PREFIX: uniquePrefix('metrics') };
    const definitions = [
      gateway(testConfig('api-gateway', env)),
      ingest(testConfig('ingest', env)),
      dispatcher(testConfig('dispatcher', env)),
      retryScheduler(testConfig('retry-scheduler', env)),
      metaEvent(testConfig('meta-event', env)),
      sourceConsumer(testConfig('source-consumer', env)),
    ];
    for (const def of definitions)
      services.push({ name: def.config.service, svc: await startTestService(def) });
    for (const { name: service, svc } of services) {
      const text = await fetch(`${svc.url}/metrics`).then((r) => r.text());
      for (const [, name] of text.matchAll(/^# TYPE (\S+) /gm))
        exported.set(name, [...(exported.get(name) ?? []), service]);
    }
  });

  afterAll(async () => {
    await Promise.all(services.map((s) => s.svc.stop()));
  });

  it('scrapes every service', () => {
    expect(services.map((s) => s.name).sort()).toEqual(
      ['api-gateway', 'dispatcher', 'ingest', 'meta-event', 'retry-scheduler', 'source-consumer'].sort(),
    );
    expect(exported.get('hookrail_dependency_up')).toHaveLength(6);
  });

  it.each([
    ['dashboard', dashboardExprs],
    ['PrometheusRule', ruleExprs],
  ])('%s: no metric is missing from the services’ /metrics', (_what, exprs) => {
    const names = [...new Set(exprs.flatMap((e) => usedMetrics(e).map((u) => u.metric)))];
    expect(names.length).toBeGreaterThan(5);
    expect(names.filter((n) => !exported.has(n))).toEqual([]);
  });
});
