import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { spawnApp, waitForOutput, type AppProcess } from './processes';

/** A Kafka topic name of the test's own for a gateway's request logs. */
export const uniqueTopic = (): string => `flowgate.test.gateway.${randomBytes(6).toString('hex')}`;

export interface GatewayProcess extends AppProcess {
  url: string;
  port: number;
}

// scripts/ is plain CommonJS outside the Nx projects: required by file name, typed by its declaration file.
type NodeFlagsScript = typeof import('../../../scripts/lib/node-flags');

/** The gateway's deployed Node flags (scripts/lib/node-flags.js: the images, `npm start`, the benches). */
export const DEPLOYMENT_NODE_FLAGS: string[] = (require(path.resolve(__dirname, '../../../scripts/lib/node-flags.js')) as NodeFlagsScript).nodeFlagsOf('gateway');

/**
 * A gateway as its own process (`node [nodeFlags] scripts/run-ts.js apps/gateway/src/main.ts`) on
 * a port the OS picks, writing its logs to a topic of its own.
 */
export async function spawnGateway(env: Record<string, string> = {}, nodeFlags: string[] = []): Promise<GatewayProcess> {
  const app = spawnApp('gateway', { GATEWAY_PORT: '0', GATEWAY_HOST: '127.0.0.1', KAFKA_LOG_TOPIC: uniqueTopic(), LOG_LEVEL: 'info', ...env }, nodeFlags);
  const [, port] = await waitForOutput(app, /"port":(\d+).*gateway listening/);
  return { ...app, url: `http://127.0.0.1:${port}`, port: Number(port) };
}
