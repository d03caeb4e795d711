import http from 'node:http';
import type { Registry } from 'prom-client';

/** What `/readyz` reports: ready or not, and optionally the state of each dependency. */
export type ReadinessReport = boolean | { ready: boolean; checks: Record<string, 'up' | 'down'> };

export interface HealthServer {
  server: http.Server;
  close(): Promise<void>;
}

/**
 * Health and metrics for the services without an HTTP API of their own (log-ingest, worker):
 * `/healthz` (process alive), `/readyz` (the `ready` callback, 200 or 503 with each dependency's
 * state when it names them), `/metrics` (Prometheus).
 */
export function startHealthServer(options: {
  port: number;
  registry: Registry;
  ready: () => ReadinessReport | Promise<ReadinessReport>;
  host?: string;
}): Promise<HealthServer> {
  const server = http.createServer(async (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/healthz') return json(res, 200, { status: 'ok' });
    if (path === '/readyz') {
      const report = await Promise.resolve(options.ready()).catch((): ReadinessReport => false);
      const ready = typeof report === 'boolean' ? report : report.ready;
      const checks = typeof report === 'boolean' ? {} : report.checks;
      return json(res, ready ? 200 : 503, { status: ready ? 'ready' : 'not_ready', ...checks });
    }
    if (path === '/metrics') {
      res.writeHead(200, { 'content-type': options.registry.contentType });
      return res.end(await options.registry.metrics());
    }
    json(res, 404, { success: false, code: 'not_found', message: 'Not found' });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () =>
      resolve({ server, close: () => new Promise<void>((done) => server.close(() => done())) }),
    );
  });
}

function json(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
