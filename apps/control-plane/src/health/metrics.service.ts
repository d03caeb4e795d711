import { Injectable } from '@nestjs/common';
import { collectProcessMetrics } from '@flowgate/platform';
import { Counter, Histogram, Registry } from 'prom-client';

/** Prometheus metrics of this app instance (its own registry, so tests can boot several apps). */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();

  readonly httpDuration = new Histogram({
    name: 'flowgate_control_plane_http_request_duration_seconds',
    help: 'Control-plane HTTP request duration by route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });

  readonly publications = new Counter({
    name: 'flowgate_control_plane_publications_total',
    help: 'Writes of serving state to Redis, by kind and outcome',
    labelNames: ['kind', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly republishes = new Counter({
    name: 'flowgate_control_plane_republish_total',
    help: 'Full republications of every project, by reason',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectProcessMetrics(this.registry);
  }
}
