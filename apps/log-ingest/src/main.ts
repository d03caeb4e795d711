import { checkKafka, checkPostgres, collectProcessMetrics, createLogger, exitOnStartupError, installShutdown, startHealthServer } from '@flowgate/platform';
import { loadLogIngestConfig } from './config';
import { createLogIngest } from './log-ingest';
import { lowerOwnPriority } from './process-priority';

async function main(): Promise<void> {
  const config = loadLogIngestConfig();
  const logger = createLogger('log-ingest', config.logLevel);
  // Before any work starts: the threads started later inherit the main thread's niceness.
  lowerOwnPriority(config.nice, logger);
  await checkPostgres(config.databaseUrl);
  await checkKafka(config.kafkaBrokers);

  const ingest = createLogIngest(config, { logger });
  collectProcessMetrics(ingest.metrics);
  const health = await startHealthServer({ port: config.port, registry: ingest.metrics, ready: () => ingest.readiness() });
  installShutdown(logger, [() => ingest.stop(), () => health.close()]);
  await ingest.start();
  logger.info({ port: config.port }, 'log-ingest started (health and metrics on /healthz /readyz /metrics)');
}

main().catch((error) => exitOnStartupError('log-ingest', error));
