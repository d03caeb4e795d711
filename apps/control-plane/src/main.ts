import { checkPostgres, checkRedis, createLogger, exitOnStartupError, installShutdown } from '@flowgate/platform';
import { createControlPlaneApp } from './app.factory';
import { loadControlPlaneConfig } from './config/control-plane.config';

const SERVICE = 'control-plane';

async function main(): Promise<void> {
  const config = loadControlPlaneConfig();
  await checkPostgres(config.databaseUrl);
  await checkRedis(config.redisUrl);
  const app = await createControlPlaneApp(config);
  await app.listen(config.port);
  const logger = createLogger(SERVICE, config.logLevel);
  installShutdown(logger, [() => app.close()]);
  logger.info({ port: config.port }, `control plane listening on http://localhost:${config.port} (API /v1, docs /docs)`);
}

main().catch((error: unknown) => exitOnStartupError(SERVICE, error));
