/**
 * The gateway's side of the engine's ports: the composition itself is shared with the control
 * plane's test runs (`@flowgate/integrations/flow-ports`, which loads the adapters on first use).
 * The gateway calls `createFlowPortsContext` once at start-up (shared clients, closed at
 * shutdown) and `buildFlowPorts` once per project configuration load — never per request.
 */
import { createFlowPortsContext as createContext, type FlowPortsContext } from '@flowgate/integrations/flow-ports';
import type { Logger, RedisClient, SecretBox } from '@flowgate/platform';
import type { GatewayConfig } from './config';

export { buildFlowPorts, loadIntegrations, type FlowPortsContext } from '@flowgate/integrations/flow-ports';

export interface GatewayPortsDeps {
  config: GatewayConfig;
  /** The gateway's command connection (images are stored under `fg:image:<id>`). */
  redis: RedisClient;
  /** Decrypts `api_key_encrypted` of the published integrations. */
  secrets: SecretBox;
  logger: Logger;
}

/** Resources shared by every project's ports, created once per gateway process. */
export function createFlowPortsContext({ config, redis, secrets, logger }: GatewayPortsDeps): FlowPortsContext {
  const settings = {
    publicUrlTemplate: config.GATEWAY_PUBLIC_URL,
    redisTarget: { url: config.REDIS_URL, clusterNodes: config.REDIS_CLUSTER_NODES },
    workerThreads: config.FLOW_WORKER_THREADS,
    workerQueue: config.FLOW_WORKER_QUEUE,
    workerTaskMs: config.FLOW_WORKER_TASK_MS,
  };
  return createContext({ settings, redis, secrets, logger });
}
