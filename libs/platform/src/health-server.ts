import http from 'node:http';
import type { Registry } from 'prom-client';

export interface HealthServer {
  server: http.Server;
  close(): Promise<void>;
}

/**
 * Health and metrics for the services without an HTTP API of their own (log-ingest, worker):
 * `/healthz` (process alive), `/readyz` (the `ready` callback), `/metrics` (Prometheus).
 */
export function startHealthServer(options: {
  port: number;
  registry: Registry;
  ready: () => boolean | Promise<boolean>;
  host?: string;
}): Promise<HealthServer> {
  const server = http.createServer(async (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/healthz') return json(res, 200, { status: 'ok' });
    if (path === '/readyz') {
      const ready = await Promise.resolve(options.ready()).catch(() => false);
      return json(res, ready ? 200 : 503, { status: ready ? 'ready' : 'not_ready' });
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
