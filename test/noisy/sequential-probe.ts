/**
 * Measurements of the noisy-neighbour drill that autocannon does not give: a probe sending one
 * request at a time (what a quiet project's single client sees: it once measured p50 0.29 →
 * 21 ms under a flood that the 10-connection probe's throughput hid), and the heap's
 * high-water mark of a process, read from its Prometheus metrics.
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';

export interface SequentialResult {
  requests: number;
  p50Ms: number;
  p99Ms: number;
  /** Answers other than 2xx, and connection errors. */
  failures: number;
}

export interface ProbeTarget {
  port: number;
  path: string;
  headers: Record<string, string>;
}

function once(agent: http.Agent, target: ProbeTarget): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port: target.port, path: target.path, headers: target.headers, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve((res.statusCode ?? 0) < 300));
      res.on('error', () => resolve(false));
    });
    req.on('error', () => resolve(false));
  });
}

/** One request at a time on one kept-alive connection for `seconds`. */
export async function sequentialProbe(target: ProbeTarget, seconds: number): Promise<SequentialResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const latencies: number[] = [];
  let failures = 0;
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    const started = performance.now();
    if (!(await once(agent, target))) failures++;
    latencies.push(performance.now() - started);
  }
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (share: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * share))] * 100) / 100;
  return { requests: latencies.length, p50Ms: at(0.5), p99Ms: at(0.99), failures };
}

/** Samples `metric` (bytes) from a process's `/metrics`-style page every 250 ms; `stop` gives the highest in MB. */
export function heapHighWater(port: number, path: string, metric: string, headers: Record<string, string> = {}): { stop(): number } {
  let highest = 0;
  const pattern = new RegExp(`^${metric} (\\S+)$`, 'm');
  const sample = (): void => {
    const req = http.get({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => {
        const value = Number(pattern.exec(body)?.[1] ?? NaN);
        if (Number.isFinite(value)) highest = Math.max(highest, value);
      });
    });
    req.on('error', () => undefined);
  };
  sample();
  const timer = setInterval(sample, 250);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.round(highest / (1024 * 1024));
    },
  };
}
