import { dataConfigShape, dataDatabaseUrlOf, devSecretDefault, env, flowConfigShape, flowLimitsOf, loadConfig } from '@flowgate/platform';
import { DEFAULT_CLAUDE_MODEL, integrationsConfigSchema } from '@flowgate/integrations/config';
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

export const controlPlaneConfigSchema = z
  .object({
    CONTROL_PLANE_PORT: env.port(3000).describe('HTTP port of `/v1`, `/docs`, `/healthz`, `/readyz`, `/metrics` (never `/internal`: 404 there)'),
    CONTROL_PLANE_INTERNAL_PORT: env.port(3003).describe('port of the internal API (`/internal/…`, service token) that the gateway\'s `/admin/api-keys` relays to; serves nothing else'),
    CONTROL_PLANE_INTERNAL_HOST: z.string().trim().min(1, 'must be an address to listen on (e.g. 127.0.0.1)').default('127.0.0.1').describe('address the internal API listens on; widen it only to a private network the gateways share (compose: `0.0.0.0`, port not published)'),
    DATABASE_URL: env.databaseUrl,
    REDIS_URL: env.redisUrl,
    REDIS_CLUSTER_NODES: env.redisClusterNodes,
    GATEWAY_DOMAIN: z
      .string()
      .regex(/^[a-z0-9.-]+(:\d{1,5})?$/i, 'must be a host name (e.g. localhost or api.example.com)')
      .default('localhost').describe('projects answer at `{subdomain}.{GATEWAY_DOMAIN}`, their saved drafts at `{subdomain}--preview.{GATEWAY_DOMAIN}` (any API key of the project)'),
    GATEWAY_PUBLIC_URL: publicUrlTemplate.describe('a project\'s `base_url`; must contain `{subdomain}`').meta({ defaultText: '`http://{subdomain}.localhost:8080`' }),
    FLOWGATE_ENCRYPTION_KEY: optionalSecret(32, '64 hex characters, e.g. `openssl rand -hex 32`').describe('AES-256-GCM key of integration secrets and project secrets (`{secrets.NAME}`) (64 hex characters); the same value everywhere').meta(devSecretDefault),
    /** During a key rotation: the old key, so secrets sealed with it still open (and are sealed again with the new one). */
    FLOWGATE_ENCRYPTION_KEY_PREVIOUS: optionalSecret(32, 'the key used before FLOWGATE_ENCRYPTION_KEY, during a rotation').describe('during a key rotation, the old key: secrets sealed with it still open, and the control plane seals them again with `FLOWGATE_ENCRYPTION_KEY` (see "Changing the encryption key")'),
    FLOWGATE_SERVICE_TOKEN: optionalSecret(16, 'shared with the gateways, e.g. `openssl rand -hex 24`').describe('bearer token of the control plane\'s internal API (≥ 16 characters); the same value on both').meta(devSecretDefault),
    SESSION_TTL_HOURS: env.positiveInt(168).describe('lifetime of a dashboard session'),
    CONTROL_PLANE_CORS_ORIGINS: z.string().default('http://localhost:5173').describe('origins allowed to call the API with credentials, and to send it changes with the session cookie (CSRF check: other origins get 403 `forbidden`)'),
    CONTROL_PLANE_TRUST_PROXY: z.enum(['true', 'false']).default('false').describe('`true` behind a reverse proxy (client address from `X-Forwarded-For`)'),
    LOGIN_MAX_FAILURES_PER_ACCOUNT: env.positiveInt(10).describe('login attempts per account checked within any window (counted before the check; success clears them) before 429'),
    LOGIN_MAX_FAILURES_PER_ADDRESS: env.positiveInt(100).describe('failed logins per client address within the window before 429'),
    LOGIN_THROTTLE_WINDOW_SECONDS: env.positiveInt(900).describe('the login throttle\'s sliding window'),
    PUBLICATION_EPOCH_CHECK_SECONDS: env.positiveInt(5).describe('how often Redis is checked for lost state (missing `fg:epoch` → republish everything; on a Redis Cluster also the projects whose document or subdomain is missing)'),
    PUBLICATION_RECONCILE_SECONDS: env.positiveInt(300).describe('period of the reconcile (revisions compared with Redis, only differing projects rewritten); the first runs right after start-up'),
    /** Workshop test runs: the same flow limits and deadline as the gateway, and a per-account rate. */
    ...flowConfigShape,
    TEST_RUNS_PER_MINUTE: env.positiveInt(60).describe('Workshop test runs per account in any sliding minute (→ 429 `rate_limited` with `Retry-After`)'),
    /** Test runs in worker threads (test-runs/sandbox/): threads, heap of each, runs that may wait. */
    TEST_RUN_THREADS: env.positiveInt(Math.min(8, Math.max(2, availableParallelism()))).describe('worker threads Workshop test runs execute in (never on the control plane\'s event loop); one run per thread').meta({ defaultText: 'the machine\'s cores, at least 2 and at most 8' }),
    TEST_RUN_HEAP_MB: env.positiveInt(256).describe('heap limit of one test-run thread (V8 `resourceLimits`); a run past it ends its own thread → 422 `run_memory_exceeded`'),
    TEST_RUN_QUEUE: env.positiveInt(16).describe('test runs of one account that may wait for a thread; beyond it → 503 `unavailable` with `Retry-After`'),
    SIGNUP_PER_ADDRESS_PER_HOUR: env.positiveInt(20).describe('sign-ups per client address in any sliding hour (→ 429 `rate_limited` with `Retry-After`); the test suites raise it for the stacks they start'),
    /** The limits of one project (docs/control-plane.md "Limits of one project"). */
    PROJECT_MAX_ENDPOINTS: env.positiveInt(100).describe('endpoints one project may have (→ 422 `too_many_endpoints`)'),
    PROJECT_MAX_FUNCTIONS: env.positiveInt(100).describe('functions one project may have (→ 422 `too_many_functions`)'),
    PROJECT_MAX_SCHEDULES: env.positiveInt(20).describe('schedules one project may have (→ 422 `too_many_schedules`)'),
    SCHEDULE_MIN_INTERVAL_S: env.positiveInt(60).describe('shortest time between two runs of one schedule; a cron that runs more often → 400 naming `cron`'),
    BULLMQ_PREFIX: z
      .string()
      .regex(/^[a-zA-Z0-9_.-]{1,64}$/, 'must be letters, digits, "_", "." or "-"')
      .default('bull')
      .describe('BullMQ key prefix; producers (the gateway\'s email jobs, the control plane\'s schedule job schedulers) and the worker must agree'),
    SCHEDULE_TICK_EVERY_MS: z.coerce
      .number({ error: 'must be a whole number' })
      .int()
      .min(0)
      .default(0)
      .describe('tests and development only: every running schedule ticks every this many ms instead of by its cron (0: by its cron)'),
    PROJECT_MAX_FLOW_BYTES: env.positiveInt(256 * 1024).describe('size of one flow document as JSON, on create, Save, Import and test run (→ 413 `payload_too_large`)'),
    PROJECT_MAX_LIVE_BYTES: env.positiveInt(2 * 1024 * 1024).describe('size of a project\'s live configuration (settings and flows of its live versions), checked at Deploy and rollback (→ 422 `project_too_large`); bounds what the gateways hold and the project\'s OpenAPI document'),
    SAVES_PER_MINUTE: env.positiveInt(120).describe('Saves (and endpoint creations) per account in any sliding minute (→ 429 `rate_limited` with `Retry-After`)'),
    DEPLOYS_PER_MINUTE: env.positiveInt(30).describe('Deploys, undeploys and rollbacks per account in any sliding minute (→ 429 `rate_limited`)'),
    IMPORTS_PER_MINUTE: env.positiveInt(30).describe('endpoint imports per account in any sliding minute (→ 429 `rate_limited`)'),
    /** The drafting assistant (docs/assistant.md): the operator's Anthropic key, not a project's. */
    FLOWGATE_ASSISTANT_API_KEY: z
      .string()
      .optional()
      .transform((value) => (value && value.trim() ? value.trim() : undefined))
      .describe('Anthropic API key of the Workshop\'s drafting assistant (the operator\'s, billed to the installation); without it the assistant is off (503 `assistant_unavailable`, and the dashboard says how to enable it)'),
    FLOWGATE_ASSISTANT_MODEL: z.string().trim().min(1, 'must be a Claude model id').default(DEFAULT_CLAUDE_MODEL).describe('Claude model the drafting assistant asks'),
    ANTHROPIC_BASE_URL: integrationsConfigSchema.shape.ANTHROPIC_BASE_URL,
    ASSISTANT_PER_HOUR: env.positiveInt(30).describe('drafts the assistant makes per account in any sliding hour (→ 429 `rate_limited` with `Retry-After`)'),
    ...dataConfigShape,
    DATA_MAX_TABLES_PER_PROJECT: env.positiveInt(50).describe('data tables per project (→ 507 `data_limit_reached`)'),
    DATA_MAX_ROWS_PER_PROJECT: env.positiveInt(1_000_000).describe('rows of all a project\'s tables (→ 507 `data_limit_reached`)'),
    DATA_MAX_BYTES_PER_PROJECT: env.positiveInt(1024 * 1024 * 1024).describe('bytes of all a project\'s rows, as PostgreSQL stores them (→ 507)'),
    DATA_MAX_BYTES_PER_ROW: env.positiveInt(64 * 1024).describe('bytes of one row (→ 507 `data_limit_reached`)'),
    DATA_STATEMENT_TIMEOUT_MS: env
      .positiveInt(5000)
      .describe('longest one statement on the data database may run for the rows API and CSV; then it is stopped → 504 `query_timeout` (table definitions are not bounded by it)'),
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
      codeMemoryMb: value.CODE_MEMORY_MB,
    },
    testRunsPerMinute: value.TEST_RUNS_PER_MINUTE,
    bullmqPrefix: value.BULLMQ_PREFIX,
    /** 0: schedules tick by their cron; tests make them tick every this many ms. */
    scheduleTickEveryMs: value.SCHEDULE_TICK_EVERY_MS,
    testRunSandbox: { threads: value.TEST_RUN_THREADS, heapMb: value.TEST_RUN_HEAP_MB, queue: value.TEST_RUN_QUEUE },
    signupsPerAddressPerHour: value.SIGNUP_PER_ADDRESS_PER_HOUR,
    projectLimits: {
      maxEndpoints: value.PROJECT_MAX_ENDPOINTS,
      maxFunctions: value.PROJECT_MAX_FUNCTIONS,
      maxSchedules: value.PROJECT_MAX_SCHEDULES,
      scheduleMinIntervalS: value.SCHEDULE_MIN_INTERVAL_S,
      maxFlowBytes: value.PROJECT_MAX_FLOW_BYTES,
      maxLiveBytes: value.PROJECT_MAX_LIVE_BYTES,
      /** Per account, in any sliding minute. */
      perMinute: { save: value.SAVES_PER_MINUTE, deploy: value.DEPLOYS_PER_MINUTE, import: value.IMPORTS_PER_MINUTE },
    },
    /** The drafting assistant; `apiKey` undefined: the assistant is off. */
    assistant: {
      apiKey: value.FLOWGATE_ASSISTANT_API_KEY,
      model: value.FLOWGATE_ASSISTANT_MODEL,
      /** Undefined: Anthropic's own address. */
      baseUrl: value.ANTHROPIC_BASE_URL,
      perHour: value.ASSISTANT_PER_HOUR,
    },
    /** Data tables: where the rows are, and the limits of one project (docs/data-tables.md). */
    data: {
      url: dataDatabaseUrlOf(value),
      poolSize: value.DATA_POOL_SIZE,
      statementTimeoutMs: value.DATA_STATEMENT_TIMEOUT_MS,
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

export type ControlPlaneConfig = z.infer<typeof controlPlaneConfigSchema>;

/** Injection token of the validated configuration. */
export const CONFIG = Symbol('ControlPlaneConfig');

export function loadControlPlaneConfig(environment: NodeJS.ProcessEnv = process.env): ControlPlaneConfig {
  return loadConfig(controlPlaneConfigSchema, environment);
}
