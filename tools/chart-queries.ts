import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The PromQL of the chart's Grafana dashboard and PrometheusRule, and the metrics it names. */
const chart = path.resolve(__dirname, '../charts/hookrail');

/** Every `hookrail_…{labels}` selector and `by (labels)` grouping in a PromQL text. */
export function usedMetrics(promql: string): { metric: string; labels: string[] }[] {
  return [...promql.matchAll(/(hookrail_[a-z_]+)(\{[^}]*\})?/g)].map((m) => ({
    metric: m[1].replace(/_(bucket|sum|count)$/, ''),
    labels: [...(m[2] ?? '').matchAll(/([a-z_]+)\s*(?:=~|!=|!~|=)/g)].map((l) => l[1]),
  }));
}

const dashboard = JSON.parse(readFileSync(path.join(chart, 'dashboards/hookrail.json'), 'utf8')) as {
  panels: { title: string; targets: { expr: string }[] }[];
};
export const dashboardExprs = dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr));
const rulesText = readFileSync(path.join(chart, 'templates/prometheusrule.yaml'), 'utf8');
export const ruleExprs = [...rulesText.matchAll(/expr: \|?\n?([\s\S]*?)\n\s+(?:for|labels):/g)].map(
  (m) => m[1],
);
