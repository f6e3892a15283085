/** A service's garbage collections so far, from prom-client's `nodejs_gc_duration_seconds`. */
export interface GcPauses {
  count: number;
  seconds: number;
  /** Collections over 10 ms and over 100 ms (the histogram's default buckets). */
  over10ms: number;
  over100ms: number;
}

/** Sums the histogram over its `kind` labels (minor, major, incremental, weakcb). */
export function gcPausesOf(metricsText: string): GcPauses {
  const sum = (re: RegExp) => [...metricsText.matchAll(re)].reduce((total, m) => total + Number(m[1]), 0);
  const count = sum(/^nodejs_gc_duration_seconds_count\{[^}]*\} (\S+)$/gm);
  return {
    count,
    seconds: sum(/^nodejs_gc_duration_seconds_sum\{[^}]*\} (\S+)$/gm),
    over10ms: count - sum(/^nodejs_gc_duration_seconds_bucket\{le="0\.01"[^}]*\} (\S+)$/gm),
    over100ms: count - sum(/^nodejs_gc_duration_seconds_bucket\{le="0\.1"[^}]*\} (\S+)$/gm),
  };
}

export async function gcPauses(services: { name: string; url: string }[]): Promise<Map<string, GcPauses>> {
  const pauses = new Map<string, GcPauses>();
  for (const svc of services)
    pauses.set(svc.name, gcPausesOf(await fetch(`${svc.url}/metrics`).then((r) => r.text())));
  return pauses;
}

/** `name: N collections, T ms in all, K over 10 ms (L over 100 ms)` per service between two snapshots. */
export function gcPausesBetween(before: Map<string, GcPauses>, after: Map<string, GcPauses>): string[] {
  return [...after].map(([name, a]) => {
    const b = before.get(name) ?? { count: 0, seconds: 0, over10ms: 0, over100ms: 0 };
    return describeGcPauses(name, {
      count: a.count - b.count,
      seconds: a.seconds - b.seconds,
      over10ms: a.over10ms - b.over10ms,
      over100ms: a.over100ms - b.over100ms,
    });
  });
}

export function describeGcPauses(name: string, p: GcPauses): string {
  return (
    `${name}: ${p.count} garbage collections, ${(p.seconds * 1000).toFixed(0)} ms in all, ` +
    `${p.over10ms} over 10 ms (${p.over100ms} over 100 ms)`
  );
}
