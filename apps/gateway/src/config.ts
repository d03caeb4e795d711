import { REQUEST_LOG_TOPIC_DEFAULT } from '@flowgate/contracts';
import { dataConfigShape, env, flowConfigShape, loadConfig } from '@flowgate/platform';
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
 * Every variable the gateway reads, with its default (documented in docs/gateway.md).
 * Validated once at boot; a problem ends the process with one line naming the variable.
 */
export const gatewayConfigSchema = z.object({
  GATEWAY_PORT: env.port(8080),
  GATEWAY_HOST: z.string().min(1).default('0.0.0.0'),
  /** Projects answer at `{subdomain}.{GATEWAY_DOMAIN}`. */
  GATEWAY_DOMAIN: z
    .string()
    .default('localhost')
    .transform((value) => value.trim().toLowerCase().replace(/^\.+|\.+$/g, ''))
    .refine((value) => /^[a-z0-9.-]+$/.test(value), 'must be a domain name (e.g. localhost or api.example.com)'),
  /** Public base URL of a project, `{subdomain}` replaced (used for URLs the gateway hands out, e.g. images). */
  GATEWAY_PUBLIC_URL: z
    .string()
    .default('http://{subdomain}.localhost:8080')
    .refine((value) => value.includes('{subdomain}'), 'must contain {subdomain} (e.g. http://{subdomain}.localhost:8080)'),
  REDIS_URL: env.redisUrl,
  /** Seeds of a Redis Cluster (`host:port,…`); unset = the single Redis at REDIS_URL. */
  REDIS_CLUSTER_NODES: env.redisClusterNodes,
  KAFKA_BROKERS: env.kafkaBrokers,
  KAFKA_LOG_TOPIC: z.string().min(1).default(REQUEST_LOG_TOPIC_DEFAULT),
  /** The control plane's internal API (its own listener, loopback by default), for the admin key relay only. */
  CONTROL_PLANE_INTERNAL_URL: httpUrl('http://127.0.0.1:3003')
    .default('http://127.0.0.1:3003')
    .transform((value) => value.replace(/\/+$/, '')),
  FLOWGATE_SERVICE_TOKEN: z
    .string({ error: 'is required: the shared secret for the control plane internal API (same value on both)' })
    .min(16, 'must be at least 16 characters'),
  FLOWGATE_ENCRYPTION_KEY: z
    .string({ error: 'is required: the key that decrypts integration secrets (64 hex characters)' })
    .min(16, 'must be at least 16 characters (64 hex characters recommended)'),
  /** During a key rotation: documents published before the control plane restarted with the new key still open. */
  FLOWGATE_ENCRYPTION_KEY_PREVIOUS: z.string().optional(),
  GATEWAY_MAX_BODY_BYTES: env.positiveInt(1024 * 1024),
  /** FLOW_TIMEOUT_MS, FLOW_MAX_*, FLOW_CPU_BUDGET_MS, FLOW_SLICE_MS, FLOW_WORKER_*: shared with the control plane's test runs. */
  ...flowConfigShape,
  /** Heap use (percent of V8's limit) above which the projects holding the most memory get no new runs (503). */
  GATEWAY_HEAP_HIGH_PERCENT: z.coerce.number({ error: 'must be a whole number' }).int().min(10).max(95, 'must be at most 95 (percent)').default(70),
  /** Data tables: DATA_DATABASE_URL (its default is built from DATABASE_URL's server, the only use of that variable here) and DATA_POOL_SIZE. */
  ...dataConfigShape,
  DATABASE_URL: env.databaseUrl,
  GATEWAY_LOG_BUFFER_MAX: env.positiveInt(100_000),
  /** How long a request-log event may wait for others before a batch goes to Kafka. */
  GATEWAY_LOG_LINGER_MS: env.positiveInt(50),
  /** How request-log batches travel to Kafka: gzip (level 1, kafka-log-sender.ts) or none. */
  GATEWAY_LOG_COMPRESSION: z.enum(['gzip', 'none'], { error: 'must be gzip or none' }).default('gzip'),
  /** How often the gateway compares `fg:config-seq` to catch a missed pub/sub message. */
  GATEWAY_CONFIG_POLL_MS: env.positiveInt(500),
  LOG_LEVEL: env.logLevel,
});

export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;

export const loadGatewayConfig = (source: NodeJS.ProcessEnv = process.env): GatewayConfig =>
  loadConfig(gatewayConfigSchema, source);
