import { randomBytes } from 'node:crypto';
import { type AppProcess, freePort, spawnApp, waitReady } from '@flowgate/testing';
import { startDashboard } from './dashboard-server';

export interface BrowserStack {
  /** The dashboard's address (http://localhost:PORT): open pages here. */
  dashboardUrl: string;
  /** The control plane's address, for setting things up over HTTP faster than through the UI. */
  controlPlaneUrl: string;
  /** The gateway's address (send requests with the `Host: <subdomain>.localhost:<port>` header) and its port. */
  gatewayUrl: string;
  gatewayPort: number;
  /** A suffix unique to this stack, for subdomains, e-mails and topic names. */
  suffix: string;
  stop(): Promise<void>;
}

/**
 * A real Flowgate for one browser test file: control plane, gateway and log-ingest as their own
 * processes on free ports (against the PostgreSQL, Redis and Kafka of the test run, with a Kafka
 * topic of their own) and the production dashboard build in front of the control plane.
 */
export async function startBrowserStack(): Promise<BrowserStack> {
  const suffix = randomBytes(4).toString('hex');
  const [cpPort, cpInternalPort, gwPort, ingestPort] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
  const shared = {
    KAFKA_LOG_TOPIC: `flowgate.browser.${suffix}`,
    KAFKA_LOG_DLQ_TOPIC: `flowgate.browser.${suffix}.dlq`,
    GATEWAY_PUBLIC_URL: `http://{subdomain}.localhost:${gwPort}`,
    CONTROL_PLANE_URL: `http://127.0.0.1:${cpPort}`,
    CONTROL_PLANE_INTERNAL_URL: `http://127.0.0.1:${cpInternalPort}`,
    BULLMQ_PREFIX: `browser-${suffix}`,
  };
  const apps: AppProcess[] = [];
  const stop = async () => {
    await Promise.all(apps.map((app) => app.stop()));
  };
  try {
    const controlPlane = spawnApp('control-plane', { ...shared, CONTROL_PLANE_PORT: String(cpPort), CONTROL_PLANE_INTERNAL_PORT: String(cpInternalPort) });
    const gateway = spawnApp('gateway', { ...shared, GATEWAY_PORT: String(gwPort), GATEWAY_HOST: '127.0.0.1' });
    const ingest = spawnApp('log-ingest', { ...shared, LOG_INGEST_PORT: String(ingestPort), LOG_INGEST_GROUP: `browser-${suffix}` });
    apps.push(controlPlane, gateway, ingest);
    const controlPlaneUrl = `http://127.0.0.1:${cpPort}`;
    const [dashboard] = await Promise.all([
      startDashboard(controlPlaneUrl),
      waitReady(controlPlane, `${controlPlaneUrl}/readyz`),
      waitReady(gateway, `http://127.0.0.1:${gwPort}/_readyz`),
      waitReady(ingest, `http://127.0.0.1:${ingestPort}/readyz`),
    ]);
    apps.push(dashboard.process);
    return { dashboardUrl: dashboard.url, controlPlaneUrl, gatewayUrl: `http://127.0.0.1:${gwPort}`, gatewayPort: gwPort, suffix, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
