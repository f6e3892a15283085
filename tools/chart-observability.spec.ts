import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { dashboardExprs, ruleExprs, usedMetrics } from './chart-queries';

// The dashboard and the alerts may only name metrics the services register, with labels those
// metrics have: a renamed metric must not leave a silent panel or an alert that never fires.
const root = path.resolve(__dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (name === 'node_modules' || name === 'dist') return [];
    if (statSync(full).isDirectory()) return sources(full);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') ? [full] : [];
  });
}

/** Metric name → label names, from every `metrics.counter|gauge|histogram('hookrail_…', help, [labels])`. */
function registeredMetrics(): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const re =
    /\.(counter|gauge|histogram)\(\s*'(hookrail_[a-z_]+)',\s*(?:'[^']*'|"[^"]*"|`[^`]*`)\s*(?:,\s*\[([^\]]*)\])?/g;
  for (const file of [...sources(path.join(root, 'libs')), ...sources(path.join(root, 'services'))]) {
    for (const m of readFileSync(file, 'utf8').matchAll(re)) {
      const labels = [...(m[3] ?? '').matchAll(/'([a-z_]+)'/g)].map((l) => l[1]);
      out.set(m[2], new Set([...(out.get(m[2]) ?? []), ...labels]));
    }
  }
  return out;
}

// Added by Prometheus or by the metrics helper to every series, not by a registration.
const COMMON_LABELS = new Set(['namespace', 'service', 'le']);

describe('dashboard and alerts name only exported metrics', () => {
  const registered = registeredMetrics();

  it('finds the registrations, the panels and the alert expressions', () => {
    expect(registered.get('hookrail_delivery_attempts_total')).toEqual(new Set(['outcome']));
    expect(registered.get('hookrail_bus_messages_total')).toEqual(new Set(['topic', 'outcome']));
    expect(dashboardExprs.length).toBeGreaterThanOrEqual(10);
    expect(ruleExprs).toHaveLength(8);
  });

  /** What is wrong with the expressions: unknown metrics, labels a metric does not have. */
  const problemsOf = (exprs: string[]): string[] => {
    const problems: string[] = [];
    for (const expr of exprs) {
      const used = usedMetrics(expr);
      if (used.length === 0) problems.push(`"${expr}" names no hookrail metric`);
      for (const { metric, labels } of used) {
        const known = registered.get(metric);
        if (!known) problems.push(`${metric} is not registered anywhere`);
        else
          for (const l of labels)
            if (!known.has(l) && !COMMON_LABELS.has(l)) problems.push(`${metric} has no label ${l}`);
      }
      for (const by of expr.matchAll(/by \(([^)]*)\)/g)) {
        const metrics = used.map((u) => registered.get(u.metric) ?? new Set<string>());
        for (const l of by[1].split(',').map((s) => s.trim()))
          if (!COMMON_LABELS.has(l) && !metrics.some((m) => m.has(l)))
            problems.push(`"${expr}" groups by ${l}`);
      }
    }
    return problems;
  };

  it.each([
    ['dashboard', dashboardExprs],
    ['PrometheusRule', ruleExprs],
  ])('%s: every metric is registered by a service, with the labels used', (_what, exprs) => {
    expect(problemsOf(exprs)).toEqual([]);
  });

  it('flags an unknown metric, an unknown label and an unknown grouping', () => {
    expect(
      problemsOf([
        'rate(hookrail_deliveries_sent_total[5m])',
        'sum by (endpoint) (rate(hookrail_delivery_attempts_total{status="Success"}[5m]))',
      ]),
    ).toEqual([
      'hookrail_deliveries_sent_total is not registered anywhere',
      'hookrail_delivery_attempts_total has no label status',
      `"sum by (endpoint) (rate(hookrail_delivery_attempts_total{status="Success"}[5m]))" groups by endpoint`,
    ]);
  });

  // Not a PromQL parser: catches a misspelt or mangled function name, which Grafana would only
  // show as an error on the panel.
  const PROMQL_CALLS = new Set(
    'sum avg min max count rate irate increase delta histogram_quantile clamp_min clamp_max abs time timestamp vector scalar topk bottomk absent max_over_time min_over_time avg_over_time sort sort_desc label_replace'.split(
      ' ',
    ),
  );
  const unknownCalls = (exprs: string[]) =>
    exprs
      .flatMap((e) => [...e.matchAll(/([A-Za-z_][\w.]*)\s*\(/g)].map((m) => m[1]))
      .filter((f) => !PROMQL_CALLS.has(f) && f !== 'by' && f !== 'without' && f !== 'on' && f !== 'ignoring');

  it.each([
    ['dashboard', dashboardExprs],
    ['PrometheusRule', ruleExprs],
  ])('%s: every function called is a PromQL function', (_what, exprs) => {
    expect(unknownCalls(exprs)).toEqual([]);
    expect(unknownCalls(['histogram_0.5uantile(q, sum by (le) (x))'])).toEqual(['histogram_0.5uantile']);
  });
});
