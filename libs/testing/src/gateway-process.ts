import { randomBytes } from 'node:crypto';
import { spawnApp, waitForOutput, type AppProcess } from './processes';

/** A Kafka topic name of the test's own for a gateway's request logs. */
export const uniqueTopic = (): string => `flowgate.test.gateway.${randomBytes(6).toString('hex')}`;

export interface GatewayProcess extends AppProcess {
  url: string;
  port: number;
}

/** The Node flags of the deployment (deploy/Dockerfile.gateway, `npm start`). */
export const DEPLOYMENT_NODE_FLAGS = ['--max-semi-space-size=4', '--single-threaded-gc'];

/**
 * A gateway as its own process (`node [nodeFlags] scripts/run-ts.js apps/gateway/src/main.ts`) on
 * a port the OS picks, writing its logs to a topic of its own.
 */
export async function spawnGateway(env: Record<string, string> = {}, nodeFlags: string[] = []): Promise<GatewayProcess> {
  const app = spawnApp('gateway', { GATEWAY_PORT: '0', GATEWAY_HOST: '127.0.0.1', KAFKA_LOG_TOPIC: uniqueTopic(), LOG_LEVEL: 'info', ...env }, nodeFlags);
  const [, port] = await waitForOutput(app, /"port":(\d+).*gateway listening/);
  return { ...app, url: `http://127.0.0.1:${port}`, port: Number(port) };
}
