import { startAppStack } from '@flowgate/testing';
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
  /** The Kafka topic its gateway writes request-log events to and its log-ingest reads. */
  logTopic: string;
  /** The dashboard's build (`serveDashboard` serves it in front of another control plane). */
  dashboardDist: string;
  stop(): Promise<void>;
}

/**
 * A real Flowgate for one browser test file: the apps of `startAppStack` (control plane, gateway,
 * log-ingest, with `worker` a worker) and the production dashboard build in front of the
 * control plane.
 */
export async function startBrowserStack(options: { worker?: boolean; controlPlaneEnv?: Record<string, string> } = {}): Promise<BrowserStack> {
  const apps = await startAppStack({ ...options, alongside: startDashboard });
  const dashboard = apps.alongside!;
  return {
    dashboardUrl: dashboard.url,
    controlPlaneUrl: apps.controlPlaneUrl,
    gatewayUrl: apps.gatewayUrl,
    gatewayPort: apps.gatewayPort,
    suffix: apps.suffix,
    logTopic: apps.logTopic,
    dashboardDist: dashboard.dist,
    stop: async () => {
      await Promise.all([apps.stop(), dashboard.process.stop()]);
    },
  };
}
