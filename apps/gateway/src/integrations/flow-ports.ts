/**
 * The gateway's side of the engine's ports: the composition itself is shared with the control
 * plane's test runs (`@flowgate/integrations/flow-ports`, which loads the adapters on first use).
 * The gateway calls `createFlowPortsContext` once at start-up (shared clients, closed at
 * shutdown) and `buildFlowPorts` once per project configuration load — never per request.
 */
import { createFlowPortsContext as createContext, type FlowPortsContext } from '@flowgate/integrations/flow-ports';
import { createDataPool, FairDataPool } from '@flowgate/data-tables';
import { dataDatabaseUrlOf, type Logger, type RedisClient, type SecretBox } from '@flowgate/platform';
import type { GatewayConfig } from '../config';

export { buildFlowPorts, loadImageServing, type FlowPortsContext } from '@flowgate/integrations/flow-ports';

export interface GatewayPortsDeps {
  config: GatewayConfig;
  /** The gateway's command connection (images are stored under `fg:image:<id>`). */
  redis: RedisClient;
  /** Decrypts `api_key_encrypted` of the published integrations. */
  secrets: SecretBox;
  logger: Logger;
}

/** How long past FLOW_TIMEOUT_MS the data database stops a statement on its own. */
const STATEMENT_TIMEOUT_MARGIN_MS = 1000;

/** Resources shared by every project's ports, created once per gateway process. */
export function createFlowPortsContext({ config, redis, secrets, logger }: GatewayPortsDeps): FlowPortsContext {
  const settings = {
    publicUrlTemplate: config.GATEWAY_PUBLIC_URL,
    redisTarget: { url: config.REDIS_URL, clusterNodes: config.REDIS_CLUSTER_NODES },
    workerThreads: config.FLOW_WORKER_THREADS,
    workerQueue: config.FLOW_WORKER_QUEUE,
    workerTaskMs: config.FLOW_WORKER_TASK_MS,
    codeMemoryMb: config.CODE_MEMORY_MB,
  };
  // The data database through a pool of DATA_POOL_SIZE, opened when a table block first runs (a
  // gateway whose projects have no tables never loads `pg`), shared between projects by the
  // connection time each used (a project holds at most half); a statement is cancelled when its
  // run ends, and the server's statement_timeout bounds it even if the gateway goes away (a
  // second past the flow's deadline: the run's own deadline, 504 flow_timeout, comes first even
  // when a loaded loop fires its timer late — test/e2e/data-tables.int.spec.ts).
  let pool: FairDataPool | null = null;
  const data = (): FairDataPool =>
    (pool ??= new FairDataPool(
      createDataPool({
        url: dataDatabaseUrlOf(config),
        max: config.DATA_POOL_SIZE,
        statementTimeoutMs: config.FLOW_TIMEOUT_MS + STATEMENT_TIMEOUT_MARGIN_MS,
        applicationName: 'flowgate-gateway',
      }),
      config.DATA_POOL_SIZE,
    ));
  const context = createContext({ settings, redis, secrets, logger, data });
  return { deps: context.deps, close: () => Promise.all([context.close(), pool?.pool.end()]).then(() => undefined) };
}
