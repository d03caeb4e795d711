/**
 * The gateway's side of the engine's ports: the composition itself is shared with the control
 * plane's test runs (`@flowgate/integrations/flow-ports`, which loads the adapters on first use).
 * The gateway calls `createFlowPortsContext` once at start-up (shared clients, closed at
 * shutdown) and `buildFlowPorts` once per project configuration load — never per request.
 */
import { createFlowPortsContext as createContext, type FlowPortsContext } from '@flowgate/integrations/flow-ports';
import { createDataPool } from '@flowgate/data-tables';
import { dataDatabaseUrlOf, type Logger, type RedisClient, type SecretBox } from '@flowgate/platform';
import type { Pool } from 'pg';
import type { GatewayConfig } from './config';

export { buildFlowPorts, loadImageServing, type FlowPortsContext } from '@flowgate/integrations/flow-ports';

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
  // The data database through a pool of DATA_POOL_SIZE, opened when a table block first runs (a
  // gateway whose projects have no tables never loads `pg`); statements end at the flow deadline
  // on the server too.
  let pool: Pool | null = null;
  const data = (): Pool =>
    (pool ??= createDataPool({
      url: dataDatabaseUrlOf(config),
      max: config.DATA_POOL_SIZE,
      statementTimeoutMs: config.FLOW_TIMEOUT_MS,
      applicationName: 'flowgate-gateway',
    }));
  const context = createContext({ settings, redis, secrets, logger, data });
  return { deps: context.deps, close: () => Promise.all([context.close(), pool?.end()]).then(() => undefined) };
}
