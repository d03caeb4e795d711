import { collectProcessMetrics } from '@flowgate/platform';
import { Counter, Gauge, Registry } from 'prom-client';
import { StatusHistogram } from './status-histogram';

export interface GatewayMetricsSources {
  logBufferDepth(): number;
  logEventsDropped(): number;
}

/** Prometheus metrics of one gateway (`/_metrics`). The hot path only adds to plain numbers. */
export class GatewayMetrics {
  readonly registry = new Registry();
  private readonly requests: StatusHistogram;
  private readonly rateLimited: Counter;
  /** [subdomain miss, subdomain hit, project miss, project hit] */
  private readonly lookups = [0, 0, 0, 0];

  constructor(sources: GatewayMetricsSources, options: { defaultMetrics?: boolean } = {}) {
    const registers = [this.registry];
    if (options.defaultMetrics) collectProcessMetrics(this.registry, 'flowgate_gateway_');
    this.requests = new StatusHistogram([0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30], this.registry, {
      counter: 'flowgate_gateway_requests_total',
      counterHelp: 'Requests answered on project addresses, by status',
      histogram: 'flowgate_gateway_request_duration_seconds',
      histogramHelp: 'Arrival to last byte, by status',
    });
    this.rateLimited = new Counter({
      name: 'flowgate_gateway_rate_limited_total',
      help: 'Keyed requests refused with 429 rate_limited',
      registers,
    });
    const lookups = this.lookups;
    new Counter({
      name: 'flowgate_gateway_config_cache_lookups_total',
      help: 'Config cache lookups (subdomain → project id, project config) by result (hit | miss)',
      labelNames: ['cache', 'result'],
      registers,
      collect() {
        this.reset();
        this.labels('subdomain', 'miss').inc(lookups[0]);
        this.labels('subdomain', 'hit').inc(lookups[1]);
        this.labels('project', 'miss').inc(lookups[2]);
        this.labels('project', 'hit').inc(lookups[3]);
      },
    });
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
    this.requests.observe(status, durationMs / 1000);
  }

  rateLimitedRequest(): void {
    this.rateLimited.inc();
  }

  cacheLookup(cache: 'subdomain' | 'project', hit: boolean): void {
    this.lookups[(cache === 'project' ? 2 : 0) + (hit ? 1 : 0)]++;
  }
}
