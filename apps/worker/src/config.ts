import { env, loadConfig } from '@flowgate/platform';
import { z } from 'zod';

export const workerConfigSchema = z
  .object({
    DATABASE_URL: env.databaseUrl,
    REDIS_URL: env.redisUrl,
    REDIS_CLUSTER_NODES: env.redisClusterNodes,
    WORKER_PORT: env.port(3002).describe('`/healthz`, `/readyz`, `/metrics`'),
    // BullMQ's own default, so producers that set no prefix meet the worker.
    BULLMQ_PREFIX: z.string().regex(/^[a-zA-Z0-9_.-]{1,64}$/, 'must be letters, digits, "_", "." or "-"').default('bull').describe('BullMQ key prefix; producers (the gateway\'s email jobs, the control plane\'s schedule job schedulers) and the worker must agree'),
    LOG_LEVEL: env.logLevel,
  })
  .transform((vars) => ({
    databaseUrl: vars.DATABASE_URL,
    redisUrl: vars.REDIS_URL,
    redisClusterNodes: vars.REDIS_CLUSTER_NODES,
    port: vars.WORKER_PORT,
    prefix: vars.BULLMQ_PREFIX,
    logLevel: vars.LOG_LEVEL,
  }));

export type WorkerConfig = z.output<typeof workerConfigSchema>;

/** The worker configuration from the environment (and `.env`); throws a one-line ConfigError. */
export function loadWorkerConfig(source: NodeJS.ProcessEnv = process.env): WorkerConfig {
  return loadConfig(workerConfigSchema, source);
}
