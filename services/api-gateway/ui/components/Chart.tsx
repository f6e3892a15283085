import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

interface ChartSeries {
  key: string;
  label: string;
  color: string;
  values: (number | null)[];
}

interface Props {
  id: string;
  /** What the chart shows, in words: its accessible name. */
  label: string;
  /** Unix seconds, one per step. */
  times: number[];
  series: ChartSeries[];
  kind: 'bars' | 'lines';
  /** Bars on top of each other (each step's total is the bar's height). */
  stacked?: boolean;
  unit: string;
  height?: number;
}

const hhmm = (seconds: number) => {
  const d = new Date(seconds * 1000);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
};

/**
 * The series as drawn: stacked bars are cumulative sums drawn tallest first, so each shorter one
 * covers the bottom of the one before (uPlot has no stacking of its own).
 */
function drawn(series: ChartSeries[], stacked: boolean): ChartSeries[] {
  if (!stacked) return series;
  const running: number[] = [];
  const cumulative = series.map((s) => ({
    ...s,
    values: s.values.map((v, i) => (running[i] = (running[i] ?? 0) + (v ?? 0))),
  }));
  return cumulative.reverse();
}

function options(props: Props, width: number): uPlot.Options {
  const bars = props.kind === 'bars';
  return {
    width,
    height: props.height ?? 180,
    legend: { show: false },
    cursor: { drag: { x: false, y: false } },
    scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
    axes: [{}, { label: props.unit, size: 56 }],
    series: [
      {},
      ...drawn(props.series, !!props.stacked).map((s) => ({
        label: s.label,
        stroke: s.color,
        fill: bars ? s.color : undefined,
        width: bars ? 0 : 2,
        paths: bars ? uPlot.paths.bars!({ size: [0.8, 48] }) : undefined,
        points: { show: !bars, size: 5 },
      })),
    ],
  };
}

function data(props: Props): uPlot.AlignedData {
  return [props.times, ...drawn(props.series, !!props.stacked).map((s) => s.values)];
}

/**
 * A uPlot chart (canvas) with its accessible name, and the same numbers as a table for screen
 * readers and keyboard users: the steps that have a value, each cell marked with its series.
 */
export function Chart(props: Props) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);

  useEffect(() => {
    const el = box.current!;
    const u = new uPlot(options(props, el.clientWidth || 600), data(props), el);
    plot.current = u;
    const resize = new ResizeObserver(() =>
      u.setSize({ width: el.clientWidth || 600, height: props.height ?? 180 }),
    );
    resize.observe(el);
    return () => {
      resize.disconnect();
      u.destroy();
      plot.current = null;
    };
  }, [props.series.length, props.kind]);

  useEffect(() => plot.current?.setData(data(props)), [props.times, props.series]);

  const rows = props.times
    .map((t, i) => ({ t, values: props.series.map((s) => s.values[i]) }))
    .filter((r) => r.values.some((v) => v !== null && v !== 0));
  return (
    <>
      <div id={props.id} class="chart" role="img" aria-label={props.label} ref={box} />
      <details class="chart-data">
        <summary>Chart data</summary>
        <table id={`${props.id}-data`}>
          <caption class="visually-hidden">{props.label}</caption>
          <thead>
            <tr>
              <th scope="col">Time</th>
              {props.series.map((s) => (
                <th scope="col" key={s.key}>
                  {s.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.t}>
                <th scope="row">{hhmm(r.t)}</th>
                {r.values.map((v, i) => (
                  <td key={props.series[i].key} data-series={props.series[i].key}>
                    {v === null || v === undefined ? '—' : `${v}${props.unit === 'ms' ? ' ms' : ''}`}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </>
  );
}
