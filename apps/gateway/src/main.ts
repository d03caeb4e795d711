import { checkKafka, checkRedis, createLogger, exitOnStartupError, installShutdown } from '@flowgate/platform';
import { loadGatewayConfig } from './config';
import { createGateway } from './gateway';

/** Boot: a bad variable or an unreachable Redis/Kafka ends the process with one line and exit 1. */
async function main(): Promise<void> {
  const config = loadGatewayConfig();
  const logger = createLogger('gateway', config.LOG_LEVEL);
  await checkRedis(config.REDIS_URL, config.REDIS_CLUSTER_NODES);
  await checkKafka(config.KAFKA_BROKERS);
  const gateway = await createGateway(config, { logger, defaultMetrics: true });
  installShutdown(logger, [() => gateway.close()], 30_000);
  logger.info(
    { port: gateway.port, host: config.GATEWAY_HOST, domain: config.GATEWAY_DOMAIN, topic: config.KAFKA_LOG_TOPIC },
    `gateway listening: http://{subdomain}.${config.GATEWAY_DOMAIN}:${gateway.port}`,
  );
}

main().catch((error: unknown) => exitOnStartupError('gateway', error));
