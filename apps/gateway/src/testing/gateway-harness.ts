import { createLogger } from '@flowgate/platform';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { loadGatewayConfig, type GatewayConfig } from '../config';
import { createGateway, type Gateway, type GatewayOptions } from '../gateway';

const ROOT = path.resolve(__dirname, '../../../..');

export const uniqueTopic = (): string => `flowgate.test.gateway.${randomBytes(6).toString('hex')}`;

/** The test environment (global setup) plus what every test gateway needs. */
export function testConfig(env: Record<string, string> = {}): GatewayConfig {
  return loadGatewayConfig({
    ...process.env,
    GATEWAY_PORT: '0',
    GATEWAY_HOST: '127.0.0.1',
    GATEWAY_DOMAIN: 'localhost',
    KAFKA_LOG_TOPIC: uniqueTopic(),
    ...env,
  });
}

/** A gateway in this process. */
export function startGateway(env: Record<string, string> = {}, options: GatewayOptions = {}): Promise<Gateway> {
  const config = testConfig(env);
  return createGateway(config, { logger: createLogger('gateway-test', process.env.GATEWAY_TEST_LOG_LEVEL ?? 'silent'), ...options });
}

export interface GatewayProcess {
  url: string;
  port: number;
  child: ChildProcess;
  output(): string;
  /** SIGTERM, then waits for the exit code. */
  stop(): Promise<number | null>;
}

/** The Node flags of the deployment (deploy/Dockerfile.gateway, `npm start`). */
export const DEPLOYMENT_NODE_FLAGS = ['--max-semi-space-size=4', '--single-threaded-gc'];

/** A gateway as its own process (`node [nodeFlags] scripts/run-ts.js apps/gateway/src/main.ts`). */
export function spawnGateway(env: Record<string, string> = {}, nodeFlags: string[] = []): Promise<GatewayProcess> {
  const child = spawn(process.execPath, [...nodeFlags, 'scripts/run-ts.js', 'apps/gateway/src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, GATEWAY_PORT: '0', GATEWAY_HOST: '127.0.0.1', KAFKA_LOG_TOPIC: uniqueTopic(), LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`gateway process did not start:\n${output}`));
    }, 45_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = /"port":(\d+).*gateway listening/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      const port = Number(match[1]);
      resolve({
        url: `http://127.0.0.1:${port}`,
        port,
        child,
        output: () => output,
        stop: async () => {
          if (child.exitCode === null) child.kill('SIGTERM');
          return exited;
        },
      });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`gateway process exited with ${code}:\n${output}`));
    });
  });
}
