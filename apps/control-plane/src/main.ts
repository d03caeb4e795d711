import { createServer, type Server } from 'node:http';
import { checkPostgres, checkRedis, createLogger, exitOnStartupError, installShutdown } from '@flowgate/platform';
import { createControlPlaneApp } from './app.factory';
import { checkDatabaseSchema } from './infrastructure/schema-check';
import { loadControlPlaneConfig } from './config/control-plane.config';
import { internalRequestListener } from './internal/internal-listener';

const SERVICE = 'control-plane';

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Stops accepting, and drops the gateways' idle keep-alive connections so that close() can finish. */
function close(server: Server): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  return closed;
}

async function main(): Promise<void> {
  const config = loadControlPlaneConfig();
  await checkPostgres(config.databaseUrl);
  await checkRedis(config.redisUrl, config.redisClusterNodes);
  await checkDatabaseSchema(config.databaseUrl);
  const app = await createControlPlaneApp(config);
  // The internal listener first: once /readyz answers on the public port, the relay works too.
  const internal = createServer(internalRequestListener(app));
  await listen(internal, config.internal.port, config.internal.host).catch((error: Error) => {
    throw new Error(`cannot listen on CONTROL_PLANE_INTERNAL_HOST:PORT ${config.internal.host}:${config.internal.port} — ${error.message}`);
  });
  await app.listen(config.port);
  const logger = createLogger(SERVICE, config.logLevel);
  installShutdown(logger, [() => close(internal), () => app.close()]);
  logger.info(
    { port: config.port, internal: `${config.internal.host}:${config.internal.port}` },
    `control plane listening on http://localhost:${config.port} (API /v1, docs /docs); internal API on ${config.internal.host}:${config.internal.port}`,
  );
}

// Start-up errors are one line (a Prisma error, for one, spans many).
main().catch((error: unknown) =>
  exitOnStartupError(SERVICE, error instanceof Error && error.message.trim().includes('\n') ? new Error(error.message.trim().split('\n')[0]) : error),
);
