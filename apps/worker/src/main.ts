import { checkPostgres, checkRedis, collectProcessMetrics, createLogger, exitOnStartupError, installShutdown, startHealthServer } from '@flowgate/platform';
import { loadWorkerConfig } from './config';
import { discoverQueues } from './queues';
import { createWorkerRuntime } from './worker-runtime';

async function main(): Promise<void> {
  const config = loadWorkerConfig();
  const logger = createLogger('worker', config.logLevel);
  await checkRedis(config.redisUrl, config.redisClusterNodes);
  await checkPostgres(config.databaseUrl);

  const runtime = createWorkerRuntime({
    definitions: discoverQueues(),
    redisUrl: config.redisUrl,
    redisClusterNodes: config.redisClusterNodes,
    databaseUrl: config.databaseUrl,
    prefix: config.prefix,
    logger,
  });
  collectProcessMetrics(runtime.metrics);
  const health = await startHealthServer({ port: config.port, registry: runtime.metrics, ready: () => runtime.isReady() });
  // Running jobs get up to 60 s to finish before the process gives up.
  installShutdown(logger, [() => runtime.stop(), () => health.close()], 60000);
  await runtime.start();
  logger.info({ port: config.port }, 'worker started (health and metrics on /healthz /readyz /metrics)');
}

main().catch((error) => exitOnStartupError('worker', error));
