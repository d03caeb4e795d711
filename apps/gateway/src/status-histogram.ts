import type { Metric, MetricValue, MetricValueWithName, Registry } from 'prom-client';

interface StatusSeries {
  label: string;
  /** Non-cumulative counts per bucket; the last slot is +Inf. */
  buckets: Float64Array;
  sum: number;
  count: number;
}

/**
 * Request count and latency histogram by status, kept in plain arrays: observing is a
 * short loop and two additions, where prom-client's labelled metrics hash their labels on
 * every call (measurable at tens of thousands of requests per second). Exported through the
 * registry as `<name>_requests_total` (counter) and `<name>_request_duration_seconds` (histogram).
 */
export class StatusHistogram {
  private readonly series = new Map<number, StatusSeries>();

  constructor(
    private readonly bounds: readonly number[],
    registry: Registry,
    names: { counter: string; counterHelp: string; histogram: string; histogramHelp: string },
  ) {
    registry.registerMetric(this.collector(names.counter, names.counterHelp, 'counter', () => this.counterValues()));
    registry.registerMetric(this.collector(names.histogram, names.histogramHelp, 'histogram', () => this.histogramValues(names.histogram)));
  }

  observe(status: number, seconds: number): void {
    let series = this.series.get(status);
    if (series === undefined) {
      series = { label: String(status), buckets: new Float64Array(this.bounds.length + 1), sum: 0, count: 0 };
      this.series.set(status, series);
    }
    let i = 0;
    while (i < this.bounds.length && seconds > this.bounds[i]!) i++;
    series.buckets[i]!++;
    series.sum += seconds;
    series.count++;
  }

  private counterValues(): MetricValue<string>[] {
    return [...this.series.values()].map((s) => ({ labels: { status: s.label }, value: s.count }));
  }

  private histogramValues(name: string): MetricValueWithName<string>[] {
    const values: MetricValueWithName<string>[] = [];
    for (const s of this.series.values()) {
      let cumulative = 0;
      for (let i = 0; i <= this.bounds.length; i++) {
        cumulative += s.buckets[i]!;
        const le = i < this.bounds.length ? String(this.bounds[i]) : '+Inf';
        values.push({ metricName: `${name}_bucket`, labels: { status: s.label, le }, value: cumulative });
      }
      values.push({ metricName: `${name}_sum`, labels: { status: s.label }, value: s.sum });
      values.push({ metricName: `${name}_count`, labels: { status: s.label }, value: s.count });
    }
    return values;
  }

  private collector(name: string, help: string, type: 'counter' | 'histogram', values: () => MetricValue<string>[]): Metric<string> {
    // The registry reads `get()`: { name, help, type, values, aggregator }.
    const get = async () => ({ name, help, type, values: values(), aggregator: 'sum' });
    return { name, help, type, aggregator: 'sum', get, reset: () => this.series.clear() } as unknown as Metric<string>;
  }
}
