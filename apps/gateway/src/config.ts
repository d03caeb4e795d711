import { REQUEST_LOG_TOPIC_DEFAULT } from '@flowgate/contracts';
import { dataConfigShape, devSecretDefault, env, flowConfigShape, loadConfig } from '@flowgate/platform';
import { z } from 'zod';

const httpUrl = (example: string) =>
  z.string().refine((value) => {
    try {
      return ['http:', 'https:'].includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, `must be an http:// or https:// URL (e.g. ${example})`);

/**
 * Every variable the gateway reads, with its default and `.describe()` text (the README's table, `npm run docs:config`).
 * Validated once at boot; a problem ends the process with one line naming the variable.
 */
export const gatewayConfigSchema = z.object({
  GATEWAY_PORT: env.port(8080).describe('listening port'),
  GATEWAY_HOST: z.string().min(1).default('0.0.0.0').describe('listening address'),
  /** Projects answer at `{subdomain}.{GATEWAY_DOMAIN}`. */
  GATEWAY_DOMAIN: z
    .string()
    .default('localhost')
    .transform((value) => value.trim().toLowerCase().replace(/^\.+|\.+$/g, ''))
    .refine((value) => /^[a-z0-9.-]+$/.test(value), 'must be a domain name (e.g. localhost or api.example.com)').describe('projects answer at `{subdomain}.{GATEWAY_DOMAIN}`, their saved drafts at `{subdomain}--preview.{GATEWAY_DOMAIN}` (any API key of the project)'),
  /** Public base URL of a project, `{subdomain}` replaced (used for URLs the gateway hands out, e.g. images). */
  GATEWAY_PUBLIC_URL: z
    .string()
    .default('http://{subdomain}.localhost:8080')
    .refine((value) => value.includes('{subdomain}'), 'must contain {subdomain} (e.g. http://{subdomain}.localhost:8080)').describe('a project\'s `base_url`; must contain `{subdomain}`'),
  REDIS_URL: env.redisUrl,
  /** Seeds of a Redis Cluster (`host:port,…`); unset = the single Redis at REDIS_URL. */
  REDIS_CLUSTER_NODES: env.redisClusterNodes,
  KAFKA_BROKERS: env.kafkaBrokers,
  KAFKA_LOG_TOPIC: z.string().min(1).default(REQUEST_LOG_TOPIC_DEFAULT).describe('request-log events (NDJSON messages, one partition per gateway send)'),
  /** The control plane's internal API (its own listener, loopback by default), for the admin key relay only. */
  CONTROL_PLANE_INTERNAL_URL: httpUrl('http://127.0.0.1:3003')
    .default('http://127.0.0.1:3003')
    .transform((value) => value.replace(/\/+$/, '')).describe('the control plane\'s internal listener, where the gateway relays `/admin/api-keys`'),
  FLOWGATE_SERVICE_TOKEN: z
    .string({ error: 'is required: the shared secret for the control plane internal API (same value on both)' })
    .min(16, 'must be at least 16 characters').describe('bearer token of the control plane\'s internal API (≥ 16 characters); the same value on both').meta(devSecretDefault),
  FLOWGATE_ENCRYPTION_KEY: z
    .string({ error: 'is required: the key that decrypts integration secrets (64 hex characters)' })
    .min(16, 'must be at least 16 characters (64 hex characters recommended)').describe('AES-256-GCM key of integration secrets and project secrets (`{secrets.NAME}`) (64 hex characters); the same value everywhere').meta(devSecretDefault),
  /** During a key rotation: documents published before the control plane restarted with the new key still open. */
  FLOWGATE_ENCRYPTION_KEY_PREVIOUS: z.string().optional().describe('during a key rotation, the old key: secrets sealed with it still open, and the control plane seals them again with `FLOWGATE_ENCRYPTION_KEY` (see "Changing the encryption key")'),
  GATEWAY_MAX_BODY_BYTES: env.positiveInt(1024 * 1024).describe('request body limit (→ 413 `payload_too_large`)'),
  /** One project's cached GET answers in Redis at most (least recently used out first). */
  PROJECT_MAX_CACHE_BYTES: env.positiveInt(16 * 1024 * 1024).describe('bytes of one project\'s cached GET answers in Redis at most; the least recently used go first'),
  /** The cached GET answers this gateway also keeps in its own memory (inbound/near-answers.ts). */
  GATEWAY_ANSWER_CACHE_MB: env.positiveInt(8).describe('megabytes of cached GET answers a gateway also keeps in its own memory, so that a hit needs no Redis round trip; the least recently used go first'),
  /** FLOW_TIMEOUT_MS, FLOW_MAX_*, FLOW_CPU_BUDGET_MS, FLOW_SLICE_MS, FLOW_WORKER_*: shared with the control plane's test runs. */
  ...flowConfigShape,
  /** Heap use (percent of V8's limit) above which the projects holding the most memory get no new runs (503). */
  GATEWAY_HEAP_HIGH_PERCENT: z.coerce.number({ error: 'must be a whole number' }).int().min(10).max(95, 'must be at most 95 (percent)').default(70).describe('heap use (percent of V8\'s limit) above which the projects whose running flows hold the most memory get no new runs (503 `unavailable` with `Retry-After`)'),
  /** Data tables: DATA_DATABASE_URL (its default is built from DATABASE_URL's server, the only use of that variable here) and DATA_POOL_SIZE. */
  ...dataConfigShape,
  DATABASE_URL: env.databaseUrl,
  GATEWAY_LOG_BUFFER_MAX: env.positiveInt(100_000).describe('request-log events held while Kafka is unreachable, and 1 KiB of JSON an event on average; beyond either, events are dropped and counted'),
  /** How long a request-log event may wait for others before a batch goes to Kafka. */
  GATEWAY_LOG_LINGER_MS: env.positiveInt(50).describe('how long an event may wait for others before a batch goes to Kafka'),
  /** How request-log batches travel to Kafka: gzip (level 1, kafka-log-sender.ts) or none. */
  GATEWAY_LOG_COMPRESSION: z.enum(['gzip', 'none'], { error: 'must be gzip or none' }).default('gzip').describe('how request-log batches travel to Kafka: `gzip` (level 1: ~18× fewer bytes for less CPU than they cost the pipeline) or `none`'),
  /** How often the gateway compares `fg:config-seq` to catch a missed pub/sub message. */
  GATEWAY_CONFIG_POLL_MS: env.positiveInt(500).describe('how often `fg:config-seq` is compared, to catch a missed pub/sub message'),
  GATEWAY_PROJECT_CACHE_MB: env
    .positiveInt(256)
    .describe('megabytes of memory (RSS) the cached project configurations may take, estimated from the size of their documents; beyond it the least recently used projects are dropped and read again from Redis on their next request'),
  /** Wrong API keys a client address, and a project, may send per minute before further unknown keys are refused with 429 (auth/key-failures.ts). */
  KEY_FAILURES_PER_MINUTE: env.positiveInt(100).describe('wrong API keys per minute per client address and per project (counted in Redis); past it, keys not accepted lately get 429 `too_many_attempts` with `Retry-After` before any lookup'),
  /** Behind a reverse proxy: the client address is the last X-Forwarded-For entry (the proxy's own). */
  GATEWAY_TRUST_PROXY: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .default('false')
    .transform((value) => value === 'true')
    .describe('`true` behind a reverse proxy: the client address (for `KEY_FAILURES_PER_MINUTE`) is the last `X-Forwarded-For` entry'),
  LOG_LEVEL: env.logLevel,
});

export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;

export const loadGatewayConfig = (source: NodeJS.ProcessEnv = process.env): GatewayConfig =>
  loadConfig(gatewayConfigSchema, source);
