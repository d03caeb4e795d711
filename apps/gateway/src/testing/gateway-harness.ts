import { createLogger } from '@flowgate/platform';
import { call, type CallResult, uniqueTopic } from '@flowgate/testing';
import { loadGatewayConfig, type GatewayConfig } from '../config';
import { createGateway, type Gateway, type GatewayOptions } from '../gateway';

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

/** An admin key's `POST /admin/api-keys` through a gateway of its own started with `env` (closed after): how its relay to the control plane answers. */
export async function adminCreateKeyThrough(env: Record<string, string>, host: string, adminKey: string): Promise<CallResult> {
  const gateway = await startGateway(env);
  try {
    return await call(gateway.url, host, '/admin/api-keys', { method: 'POST', key: adminKey, body: JSON.stringify({ name: 'x' }) });
  } finally {
    await gateway.close();
  }
}
