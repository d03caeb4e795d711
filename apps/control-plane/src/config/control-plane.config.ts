import { dataConfigShape, dataDatabaseUrlOf, env, flowConfigShape, flowLimitsOf, loadConfig } from '@flowgate/platform';
import { availableParallelism } from 'node:os';
import { z } from 'zod';

/**
 * The control plane's configuration, validated once at boot. Every variable is documented
 * with its default in docs/control-plane.md.
 */
const DEV_ENCRYPTION_KEY = '0'.repeat(64);
const DEV_SERVICE_TOKEN = 'flowgate-dev-service-token';

const optionalSecret = (minLength: number, what: string) =>
  z
    .string()
    .optional()
    .transform((value) => (value === '' ? undefined : value))
    .refine((value) => value === undefined || value.length >= minLength, `must be at least ${minLength} characters (${what})`);

const publicUrlTemplate = z
  .string()
  .optional()
  .refine((value) => {
    if (value === undefined || value === '') return true;
    if (!value.includes('{subdomain}')) return false;
    try {
      return ['http:', 'https:'].includes(new URL(value.replace('{subdomain}', 'example')).protocol);
    } catch {
      return false;
    }
  }, 'must be an http(s) URL containing {subdomain} (e.g. http://{subdomain}.localhost:8080)');

const schema = z
  .object({
    CONTROL_PLANE_PORT: env.port(3000),
    CONTROL_PLANE_INTERNAL_PORT: env.port(3003),
    CONTROL_PLANE_INTERNAL_HOST: z.string().trim().min(1, 'must be an address to listen on (e.g. 127.0.0.1)').default('127.0.0.1'),
    DATABASE_URL: env.databaseUrl,
    REDIS_URL: env.redisUrl,
    REDIS_CLUSTER_NODES: env.redisClusterNodes,
    GATEWAY_DOMAIN: z
      .string()
      .regex(/^[a-z0-9.-]+(:\d{1,5})?$/i, 'must be a host name (e.g. localhost or api.example.com)')
      .default('localhost'),
    GATEWAY_PUBLIC_URL: publicUrlTemplate,
    FLOWGATE_ENCRYPTION_KEY: optionalSecret(32, '64 hex characters, e.g. `openssl rand -hex 32`'),
    /** During a key rotation: the old key, so secrets sealed with it still open (and are sealed again with the new one). */
    FLOWGATE_ENCRYPTION_KEY_PREVIOUS: optionalSecret(32, 'the key used before FLOWGATE_ENCRYPTION_KEY, during a rotation'),
    FLOWGATE_SERVICE_TOKEN: optionalSecret(16, 'shared with the gateways, e.g. `openssl rand -hex 24`'),
    SESSION_TTL_HOURS: env.positiveInt(168),
    CONTROL_PLANE_CORS_ORIGINS: z.string().default('http://localhost:5173'),
    CONTROL_PLANE_TRUST_PROXY: z.enum(['true', 'false']).default('false'),
    LOGIN_MAX_FAILURES_PER_ACCOUNT: env.positiveInt(10),
    LOGIN_MAX_FAILURES_PER_ADDRESS: env.positiveInt(100),
    LOGIN_THROTTLE_WINDOW_SECONDS: env.positiveInt(900),
    PUBLICATION_EPOCH_CHECK_SECONDS: env.positiveInt(5),
    PUBLICATION_RECONCILE_SECONDS: env.positiveInt(300),
    /** Workshop test runs: the same flow limits and deadline as the gateway, and a per-account rate. */
    ...flowConfigShape,
    TEST_RUNS_PER_MINUTE: env.positiveInt(60),
    /** Test runs in worker threads (test-runs/sandbox/): threads, heap of each, runs that may wait. */
    TEST_RUN_THREADS: env.positiveInt(Math.min(8, Math.max(2, availableParallelism()))),
    TEST_RUN_HEAP_MB: env.positiveInt(256),
    TEST_RUN_QUEUE: env.positiveInt(16),
    SIGNUP_PER_ADDRESS_PER_HOUR: env.positiveInt(20),
    /** The limits of one project (docs/control-plane.md "Limits of one project"). */
    PROJECT_MAX_ENDPOINTS: env.positiveInt(100),
    PROJECT_MAX_FLOW_BYTES: env.positiveInt(256 * 1024),
    PROJECT_MAX_LIVE_BYTES: env.positiveInt(2 * 1024 * 1024),
    SAVES_PER_MINUTE: env.positiveInt(120),
    DEPLOYS_PER_MINUTE: env.positiveInt(30),
    IMPORTS_PER_MINUTE: env.positiveInt(30),
    ...dataConfigShape,
    DATA_MAX_TABLES_PER_PROJECT: env.positiveInt(50),
    DATA_MAX_ROWS_PER_PROJECT: env.positiveInt(1_000_000),
    DATA_MAX_BYTES_PER_PROJECT: env.positiveInt(1024 * 1024 * 1024),
    DATA_MAX_BYTES_PER_ROW: env.positiveInt(64 * 1024),
    LOG_LEVEL: env.logLevel,
    NODE_ENV: env.nodeEnv,
  })
  .superRefine((value, ctx) => {
    if (value.NODE_ENV === 'development') return;
    if (!value.FLOWGATE_ENCRYPTION_KEY)
      ctx.addIssue({
        code: 'custom',
        path: ['FLOWGATE_ENCRYPTION_KEY'],
        message: `is required when NODE_ENV=${value.NODE_ENV} (64 hex characters, e.g. \`openssl rand -hex 32\`)`,
      });
    if (!value.FLOWGATE_SERVICE_TOKEN)
      ctx.addIssue({
        code: 'custom',
        path: ['FLOWGATE_SERVICE_TOKEN'],
        message: `is required when NODE_ENV=${value.NODE_ENV} (shared with the gateways)`,
      });
  })
  .transform((value) => ({
    port: value.CONTROL_PLANE_PORT,
    /** The internal API's own listener (service token); loopback unless a private network needs it. */
    internal: { port: value.CONTROL_PLANE_INTERNAL_PORT, host: value.CONTROL_PLANE_INTERNAL_HOST },
    databaseUrl: value.DATABASE_URL,
    redisUrl: value.REDIS_URL,
    /** Seeds of a Redis Cluster; null = the single Redis at `redisUrl`. */
    redisClusterNodes: value.REDIS_CLUSTER_NODES,
    gatewayPublicUrl: value.GATEWAY_PUBLIC_URL || `http://{subdomain}.${value.GATEWAY_DOMAIN}:8080`,
    encryptionKey: value.FLOWGATE_ENCRYPTION_KEY ?? DEV_ENCRYPTION_KEY,
    previousEncryptionKey: value.FLOWGATE_ENCRYPTION_KEY_PREVIOUS,
    serviceToken: value.FLOWGATE_SERVICE_TOKEN ?? DEV_SERVICE_TOKEN,
    sessionTtlHours: value.SESSION_TTL_HOURS,
    corsOrigins: value.CONTROL_PLANE_CORS_ORIGINS.split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
    trustProxy: value.CONTROL_PLANE_TRUST_PROXY === 'true',
    loginThrottle: {
      maxFailuresPerAccount: value.LOGIN_MAX_FAILURES_PER_ACCOUNT,
      maxFailuresPerAddress: value.LOGIN_MAX_FAILURES_PER_ADDRESS,
      windowSeconds: value.LOGIN_THROTTLE_WINDOW_SECONDS,
    },
    publication: {
      epochCheckSeconds: value.PUBLICATION_EPOCH_CHECK_SECONDS,
      reconcileSeconds: value.PUBLICATION_RECONCILE_SECONDS,
      /** Republish at boot and run the epoch watch and the reconcile; tests switch it off. */
      background: true,
    },
    /** How test runs execute flows (FLOW_* as on the gateway). */
    flow: {
      timeoutMs: value.FLOW_TIMEOUT_MS,
      limits: flowLimitsOf(value),
      workerQueue: value.FLOW_WORKER_QUEUE,
      workerTaskMs: value.FLOW_WORKER_TASK_MS,
    },
    testRunsPerMinute: value.TEST_RUNS_PER_MINUTE,
    testRunSandbox: { threads: value.TEST_RUN_THREADS, heapMb: value.TEST_RUN_HEAP_MB, queue: value.TEST_RUN_QUEUE },
    signupsPerAddressPerHour: value.SIGNUP_PER_ADDRESS_PER_HOUR,
    projectLimits: {
      maxEndpoints: value.PROJECT_MAX_ENDPOINTS,
      maxFlowBytes: value.PROJECT_MAX_FLOW_BYTES,
      maxLiveBytes: value.PROJECT_MAX_LIVE_BYTES,
      /** Per account, in any sliding minute. */
      perMinute: { save: value.SAVES_PER_MINUTE, deploy: value.DEPLOYS_PER_MINUTE, import: value.IMPORTS_PER_MINUTE },
    },
    /** Data tables: where the rows are, and the limits of one project (docs/data-tables.md). */
    data: {
      url: dataDatabaseUrlOf(value),
      poolSize: value.DATA_POOL_SIZE,
      maxTables: value.DATA_MAX_TABLES_PER_PROJECT,
      limits: {
        maxRowsPerProject: value.DATA_MAX_ROWS_PER_PROJECT,
        maxBytesPerProject: value.DATA_MAX_BYTES_PER_PROJECT,
        maxBytesPerRow: value.DATA_MAX_BYTES_PER_ROW,
      },
    },
    logLevel: value.LOG_LEVEL,
    nodeEnv: value.NODE_ENV,
  }));

export type ControlPlaneConfig = z.infer<typeof schema>;

/** Injection token of the validated configuration. */
export const CONFIG = Symbol('ControlPlaneConfig');

export function loadControlPlaneConfig(environment: NodeJS.ProcessEnv = process.env): ControlPlaneConfig {
  return loadConfig(schema, environment);
}
