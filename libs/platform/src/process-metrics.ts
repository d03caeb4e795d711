import { collectDefaultMetrics, type Registry } from 'prom-client';

/**
 * Event-loop lag is sampled every 100 ms instead of prom-client's 10 ms: that 10 ms timer alone
 * kept an idle process at ~0.01 of a core (`npm run bench -- stack`, its idle window).
 */
const LAG_SAMPLE_MS = 100;

/** prom-client's process metrics (CPU, memory, event loop, GC) of one app, on its registry. */
export function collectProcessMetrics(register: Registry, prefix = ''): void {
  collectDefaultMetrics({ register, prefix, eventLoopMonitoringPrecision: LAG_SAMPLE_MS });
}
