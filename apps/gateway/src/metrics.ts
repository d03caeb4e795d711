import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

type CounterChild = { inc(value?: number): void };
type HistogramChild = { observe(value: number): void };

export interface GatewayMetricsSources {
  logBufferDepth(): number;
  logEventsDropped(): number;
}

/** Prometheus metrics of one gateway (`/_metrics`). Per-status children are cached for the hot path. */
export class GatewayMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'status'>;
  private readonly duration: Histogram<'status'>;
  private readonly rateLimited: Counter;
  private readonly cacheLookups: Counter<'cache' | 'result'>;
  private readonly byStatus = new Map<number, { count: CounterChild; duration: HistogramChild }>();
  /** [subdomain miss, subdomain hit, project miss, project hit] */
  private readonly lookupChildren: CounterChild[];

  constructor(sources: GatewayMetricsSources, options: { defaultMetrics?: boolean } = {}) {
    const registers = [this.registry];
    if (options.defaultMetrics) collectDefaultMetrics({ register: this.registry, prefix: 'flowgate_gateway_' });
    this.requests = new Counter({
      name: 'flowgate_gateway_requests_total',
      help: 'Requests answered on project addresses, by status',
      labelNames: ['status'],
      registers,
    });
    this.duration = new Histogram({
      name: 'flowgate_gateway_request_duration_seconds',
      help: 'Arrival to last byte, by status',
      labelNames: ['status'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30],
      registers,
    });
    this.rateLimited = new Counter({
      name: 'flowgate_gateway_rate_limited_total',
      help: 'Keyed requests refused with 429 rate_limited',
      registers,
    });
    this.cacheLookups = new Counter({
      name: 'flowgate_gateway_config_cache_lookups_total',
      help: 'Config cache lookups (subdomain → project id, project config) by result (hit | miss)',
      labelNames: ['cache', 'result'],
      registers,
    });
    this.lookupChildren = [
      this.cacheLookups.labels('subdomain', 'miss'),
      this.cacheLookups.labels('subdomain', 'hit'),
      this.cacheLookups.labels('project', 'miss'),
      this.cacheLookups.labels('project', 'hit'),
    ];
    new Gauge({
      name: 'flowgate_gateway_log_buffer_depth',
      help: 'Request-log events waiting for Kafka (queued and in flight)',
      registers,
      collect() {
        this.set(sources.logBufferDepth());
      },
    });
    new Gauge({
      name: 'flowgate_gateway_log_events_dropped',
      help: 'Request-log events dropped because the buffer was full (since start)',
      registers,
      collect() {
        this.set(sources.logEventsDropped());
      },
    });
  }

  observeRequest(status: number, durationMs: number): void {
    let children = this.byStatus.get(status);
    if (children === undefined) {
      const label = String(status);
      children = { count: this.requests.labels(label), duration: this.duration.labels(label) };
      this.byStatus.set(status, children);
    }
    children.count.inc();
    children.duration.observe(durationMs / 1000);
  }

  rateLimitedRequest(): void {
    this.rateLimited.inc();
  }

  cacheLookup(cache: 'subdomain' | 'project', hit: boolean): void {
    this.lookupChildren[(cache === 'project' ? 2 : 0) + (hit ? 1 : 0)]!.inc();
  }
}
