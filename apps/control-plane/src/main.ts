import { checkPostgres, checkRedis, createLogger, exitOnStartupError, installShutdown } from '@flowgate/platform';
import { createControlPlaneApp } from './app.factory';
import { checkDatabaseSchema } from './infrastructure/schema-check';
import { loadControlPlaneConfig } from './config/control-plane.config';

const SERVICE = 'control-plane';

async function main(): Promise<void> {
  const config = loadControlPlaneConfig();
  await checkPostgres(config.databaseUrl);
  await checkRedis(config.redisUrl);
  await checkDatabaseSchema(config.databaseUrl);
  const app = await createControlPlaneApp(config);
  await app.listen(config.port);
  const logger = createLogger(SERVICE, config.logLevel);
  installShutdown(logger, [() => app.close()]);
  logger.info({ port: config.port }, `control plane listening on http://localhost:${config.port} (API /v1, docs /docs)`);
}

// Start-up errors are one line (a Prisma error, for one, spans many).
main().catch((error: unknown) =>
  exitOnStartupError(SERVICE, error instanceof Error && error.message.trim().includes('\n') ? new Error(error.message.trim().split('\n')[0]) : error),
);
