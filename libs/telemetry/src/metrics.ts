import { Counter, Histogram, Gauge, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * One registry per process. Metric names carry their unit. Instruments are created lazily
 * through these helpers so two modules asking for the same name share one instrument.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly instruments = new Map<string, Counter<string> | Histogram<string> | Gauge<string>>();

  constructor(service: string, opts: { defaultMetrics?: boolean } = {}) {
    this.registry.setDefaultLabels({ service });
    if (opts.defaultMetrics !== false) collectDefaultMetrics({ register: this.registry });
  }

  counter(name: string, help: string, labelNames: string[] = []): Counter<string> {
    return this.getOrCreate(name, () => new Counter({ name, help, labelNames, registers: [this.registry] }));
  }

  histogram(name: string, help: string, labelNames: string[] = [], buckets?: number[]): Histogram<string> {
    return this.getOrCreate(
      name,
      () =>
        new Histogram({
          name,
          help,
          labelNames,
          buckets: buckets ?? [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
          registers: [this.registry],
        }),
    );
  }

  /** `collect`, when given, sets the gauge's values at each scrape (state counted on demand). */
  gauge(
    name: string,
    help: string,
    labelNames: string[] = [],
    collect?: (gauge: Gauge<string>) => void,
  ): Gauge<string> {
    return this.getOrCreate(
      name,
      () =>
        new Gauge({
          name,
          help,
          labelNames,
          registers: [this.registry],
          ...(collect && {
            collect(this: Gauge<string>) {
              collect(this);
            },
          }),
        }),
    );
  }

  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  private getOrCreate<T extends Counter<string> | Histogram<string> | Gauge<string>>(
    name: string,
    make: () => T,
  ): T {
    const existing = this.instruments.get(name);
    if (existing) return existing as T;
    const created = make();
    this.instruments.set(name, created);
    return created;
  }
}
