import type { DELIVERY_OUTCOMES, ResponseOf } from '@hookrail/api-contract';
import { Chart } from '../components/Chart';
import { api } from './api';
import { withQuery } from '../components/format';
import { pageProject, useConsole } from './context';
import { Link } from './Link';

type Outcome = (typeof DELIVERY_OUTCOMES)[number];

/** GET /delivery-stats: counts per step by outcome, latency percentiles, the retry backlog. */
export type DeliveryStats = ResponseOf<typeof api.getDeliveryStats>;

const OUTCOMES: [Outcome, string, string][] = [
  ['Success', 'succeeded', '#2f8f57'],
  ['Retry', 'to retry', '#d08a1a'],
  ['Failure', 'failed', '#c0392b'],
  ['Discarded', 'discarded', '#7a8594'],
];
const LATENCY: ['p50_ms' | 'p95_ms', string, string][] = [
  ['p50_ms', 'p50', '#1f4fc4'],
  ['p95_ms', 'p95', '#8e44ad'],
];

/** `?window=day` or the last hour. */
export const statsWindow = (query: URLSearchParams) => (query.get('window') === 'day' ? 'day' : 'hour');

const ms = (v: number | null, none: string) => (v === null ? none : `${v} ms`);

function Legend({ items }: { items: [string, string, string][] }) {
  return (
    <ul class="legend">
      {items.map(([key, label, color]) => (
        <li key={key}>
          <svg class="swatch" aria-hidden="true" viewBox="0 0 10 10">
            <rect width="10" height="10" fill={color} />
          </svg>
          {label}
        </li>
      ))}
    </ul>
  );
}

/** The delivery charts of a project or one endpoint, with the window tabs and the retry backlog. */
export function StatsPanel({ pid, stats }: { pid: string; stats: DeliveryStats }) {
  const { where } = useConsole();
  const t = stats.totals;
  const step = stats.step_seconds === 60 ? 'minute' : `${stats.step_seconds / 60} minutes`;
  const times = stats.points.map((p) => Date.parse(p.at) / 1000);
  const tab = (w: 'hour' | 'day', text: string) => (
    <Link
      class="tab"
      href={withQuery(where.path, { ...Object.fromEntries(where.query), window: w === 'hour' ? '' : w })}
      aria-current={stats.window === w ? 'true' : undefined}
    >
      {text}
    </Link>
  );
  const backlog = `${pageProject(pid)}/deliveries?status=Retry${stats.endpoint_id ? `&endpoint_id=${encodeURIComponent(stats.endpoint_id)}` : ''}`;
  return (
    <section class="card" id="stats" aria-label="Delivery charts">
      <div class="toolbar">
        <strong>Deliveries</strong>
        {tab('hour', 'Last hour')}
        {tab('day', 'Last day')}
        <span class="muted">updated {new Date().toLocaleTimeString()}</span>
      </div>
      <p id="stats-summary">
        {stats.window === 'day' ? 'Last day: ' : 'Last hour: '}
        {t.Success} succeeded, {t.Retry} to retry, {t.Failure} failed, {t.Discarded} discarded · latency p50{' '}
        {ms(stats.p50_ms, '—')}, p95 {ms(stats.p95_ms, '—')}
      </p>
      <p>
        <b id="retry-backlog">{`${stats.retry_backlog.count}${stats.retry_backlog.capped ? '+' : ''}`}</b>{' '}
        <Link href={backlog}>deliveries waiting for a retry (retry backlog)</Link>
      </p>
      <div class="grid charts">
        <figure>
          <Chart
            id="chart-outcomes"
            kind="bars"
            stacked
            unit="count"
            label={`Deliveries per ${step} by outcome: ${t.Success} succeeded, ${t.Retry} to retry, ${t.Failure} failed, ${t.Discarded} discarded in total`}
            times={times}
            series={OUTCOMES.map(([key, label, color]) => ({
              key,
              label,
              color,
              values: stats.points.map((p) => p.outcomes[key]),
            }))}
          />
          <figcaption>
            Outcomes per {step}
            <Legend items={OUTCOMES} />
          </figcaption>
        </figure>
        <figure>
          <Chart
            id="chart-latency"
            kind="lines"
            unit="ms"
            label={`Attempt latency p50 ${ms(stats.p50_ms, 'none')}, p95 ${ms(stats.p95_ms, 'none')}`}
            times={times}
            series={LATENCY.map(([key, label, color]) => ({
              key,
              label,
              color,
              values: stats.points.map((p) => p[key]),
            }))}
          />
          <figcaption>
            Attempt latency (estimated from histogram buckets)
            <Legend items={LATENCY} />
          </figcaption>
        </figure>
      </div>
    </section>
  );
}
