import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { freePort } from './ports';
import { type AppProcess, spawnApp, waitForOutput, waitReady } from './processes';

export interface AppStack {
  /** `http://127.0.0.1:PORT` of the control plane (its API under `/v1`). */
  controlPlaneUrl: string;
  /** `http://127.0.0.1:PORT` of the gateway: send requests with a `Host: <subdomain>.localhost` header. */
  gatewayUrl: string;
  gatewayPort: number;
  /** Unique to this stack: for subdomains, e-mails and names. */
  suffix: string;
  /** The Kafka topic its gateway writes request-log events to and its log-ingest reads. */
  logTopic: string;
  stop(): Promise<void>;
}

export interface AppStackOptions<T> {
  /** Also a worker (schedules, Run now). */
  worker?: boolean;
  controlPlaneEnv?: Record<string, string>;
  gatewayEnv?: Record<string, string>;
  /** Work done while the apps boot (a dashboard build), given the control plane's address; its result is `alongside`. */
  alongside?: (controlPlaneUrl: string) => Promise<T>;
}

/**
 * The apps of a real Flowgate as their own processes on free ports — control plane, gateway and
 * log-ingest (and a worker) — against the test run's PostgreSQL, Redis and Kafka, with a Kafka
 * topic and consumer group of their own: what end-to-end and browser tests run against.
 */
export async function startAppStack<T = undefined>(options: AppStackOptions<T> = {}): Promise<AppStack & { alongside: T | undefined }> {
  const suffix = randomBytes(4).toString('hex');
  const [cpPort, cpInternalPort, gwPort, ingestPort] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
  const shared = {
    KAFKA_LOG_TOPIC: `flowgate.stack.${suffix}`,
    KAFKA_LOG_DLQ_TOPIC: `flowgate.stack.${suffix}.dlq`,
    GATEWAY_PUBLIC_URL: `http://{subdomain}.localhost:${gwPort}`,
    CONTROL_PLANE_URL: `http://127.0.0.1:${cpPort}`,
    CONTROL_PLANE_INTERNAL_URL: `http://127.0.0.1:${cpInternalPort}`,
    BULLMQ_PREFIX: `stack-${suffix}`,
  };
  const apps: AppProcess[] = [];
  const stop = async () => {
    await Promise.all(apps.map((app) => app.stop()));
  };
  try {
    const controlPlane = spawnApp('control-plane', { ...shared, CONTROL_PLANE_PORT: String(cpPort), CONTROL_PLANE_INTERNAL_PORT: String(cpInternalPort), ...options.controlPlaneEnv });
    const gateway = spawnApp('gateway', { ...shared, GATEWAY_PORT: String(gwPort), GATEWAY_HOST: '127.0.0.1', ...options.gatewayEnv });
    const ingest = spawnApp('log-ingest', { ...shared, LOG_INGEST_PORT: String(ingestPort), LOG_INGEST_GROUP: `stack-${suffix}` });
    apps.push(controlPlane, gateway, ingest);
    const worker = options.worker ? spawnApp('worker', { ...shared, WORKER_PORT: '0', LOG_LEVEL: 'info' }) : null;
    if (worker) apps.push(worker);
    const controlPlaneUrl = `http://127.0.0.1:${cpPort}`;
    const [alongside] = await Promise.all([
      options.alongside?.(controlPlaneUrl),
      waitReady(controlPlane, `${controlPlaneUrl}/readyz`),
      waitReady(gateway, `http://127.0.0.1:${gwPort}/_readyz`),
      waitReady(ingest, `http://127.0.0.1:${ingestPort}/readyz`),
      worker ? waitForOutput(worker, /worker started/, 90_000) : null,
    ]);
    return { controlPlaneUrl, gatewayUrl: `http://127.0.0.1:${gwPort}`, gatewayPort: gwPort, suffix, logTopic: shared.KAFKA_LOG_TOPIC, stop, alongside };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * `fetch` with a Host header (the platform's fetch drops it): the gateway chooses the project by
 * Host, and `*.localhost` does not resolve here. For clients that take a fetch (the MCP SDK's).
 */
export function hostFetch(host: string): (url: string | URL, init?: RequestInit) => Promise<Response> {
  return (url, init) =>
    new Promise((resolve, reject) => {
      const target = new URL(url);
      const headers: Record<string, string> = { host };
      new Headers(init?.headers).forEach((value, name) => {
        headers[name] = value;
      });
      const outgoing = http.request({ hostname: target.hostname, port: target.port, path: target.pathname + target.search, method: init?.method ?? 'GET', headers }, (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () => {
          const responseHeaders = new Headers();
          for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === 'string') responseHeaders.set(name, value);
          const status = incoming.statusCode ?? 500;
          resolve(new Response(status === 204 || status === 304 ? null : Buffer.concat(chunks), { status, headers: responseHeaders }));
        });
      });
      outgoing.on('error', reject);
      outgoing.end(typeof init?.body === 'string' ? init.body : undefined);
    });
}
