import { env, loadConfig } from '@flowgate/platform';
import { REQUEST_LOG_DLQ_TOPIC_DEFAULT, REQUEST_LOG_TOPIC_DEFAULT } from '@flowgate/contracts';
import { z } from 'zod';

// Kafka's own rule for topic names.
const topicName = z
  .string()
  .regex(/^[a-zA-Z0-9._-]{1,249}$/, 'must be a Kafka topic name (letters, digits, ".", "_", "-")');

export const logIngestConfigSchema = z
  .object({
    DATABASE_URL: env.databaseUrl,
    KAFKA_BROKERS: env.kafkaBrokers,
    KAFKA_LOG_TOPIC: topicName.default(REQUEST_LOG_TOPIC_DEFAULT).describe('request-log events (NDJSON messages, one partition per gateway send)'),
    KAFKA_LOG_DLQ_TOPIC: topicName.default(REQUEST_LOG_DLQ_TOPIC_DEFAULT).describe('malformed events, with the reason'),
    LOG_INGEST_GROUP: z.string().min(1, 'must not be empty').default('flowgate-log-ingest').describe('consumer group; replicas share it'),
    LOG_INGEST_PORT: env.port(3001).describe('`/healthz`, `/readyz`, `/metrics`'),
    LOG_INGEST_TOPIC_PARTITIONS: env.positiveInt(6).describe('partitions of the request-log topic'),
    // The longest a fetch waits for data: bounds how late a row becomes visible at low traffic.
    LOG_INGEST_MAX_WAIT_MS: z.coerce.number({ error: 'must be a whole number' }).int().min(10).max(5000).default(1000).describe('longest wait of a fetch for new data (bounds how late a row appears at low traffic; longer waits make larger transactions: fewer rollup deltas a request when traffic spreads over many projects)'),
    // The broker answers a fetch once this much is there (or after the wait): fewer, larger
    // rounds of fetch, transaction and commit; at low traffic a row waits up to the max wait.
    LOG_INGEST_FETCH_MIN_BYTES: z.coerce.number({ error: 'must be a whole number' }).int().min(1).max(10_485_760).default(262_144).describe('a fetch is answered once this many bytes are there, else after `LOG_INGEST_MAX_WAIT_MS` (fewer, larger batches)'),
    // Offsets are committed at most this often (each commit is a write to __consumer_offsets);
    // a crash redelivers at most this much more, stored once anyway.
    LOG_INGEST_COMMIT_INTERVAL_MS: z.coerce.number({ error: 'must be a whole number' }).int().min(0).max(10_000).default(1000).describe('least time between two offset commits'),
    // Partition batches decoded at once; their rows go to PostgreSQL in shared transactions.
    LOG_INGEST_CONCURRENCY: env.positiveInt(6).describe('partition batches decoded at once'),
    LOG_INGEST_WRITERS: env.positiveInt(2).describe('PostgreSQL transactions at once'),
    LOG_INGEST_RETRY_MAX_MS: env.positiveInt(5000).describe('longest pause between attempts while a dependency is down'),
    // Rollup deltas are folded into the rollups this often; readers add the unfolded ones, so
    // this sets a cost (longer: fewer, larger folds), not how fresh the stats are.
    LOG_INGEST_ROLLUP_FOLD_MS: z.coerce.number({ error: 'must be a whole number' }).int().min(100).max(600_000).default(60_000).describe('how often the stats rollups\' deltas are folded into them (docs/log-pipeline.md, "Stats rollups")'),
    // The niceness log-ingest gives itself at start (process-priority.ts): its work can wait, a
    // gateway's requests on the same cores cannot. 0 = leave the priority as started.
    LOG_INGEST_NICE: z.coerce.number({ error: 'must be a whole number' }).int().min(0, 'must be 0–19').max(19, 'must be 0–19').default(10).describe('niceness it gives itself (and its own autogroup) at start, 0–19; 0 = as started (docs/log-pipeline.md, "CPU priority")'),
    LOG_LEVEL: env.logLevel,
  })
  .refine((vars) => vars.KAFKA_LOG_TOPIC !== vars.KAFKA_LOG_DLQ_TOPIC, {
    message: 'must differ from KAFKA_LOG_TOPIC',
    path: ['KAFKA_LOG_DLQ_TOPIC'],
  })
  .transform((vars) => ({
    databaseUrl: vars.DATABASE_URL,
    kafkaBrokers: vars.KAFKA_BROKERS,
    topic: vars.KAFKA_LOG_TOPIC,
    deadLetterTopic: vars.KAFKA_LOG_DLQ_TOPIC,
    groupId: vars.LOG_INGEST_GROUP,
    port: vars.LOG_INGEST_PORT,
    topicPartitions: vars.LOG_INGEST_TOPIC_PARTITIONS,
    maxWaitTimeMs: vars.LOG_INGEST_MAX_WAIT_MS,
    fetchMinBytes: vars.LOG_INGEST_FETCH_MIN_BYTES,
    commitIntervalMs: vars.LOG_INGEST_COMMIT_INTERVAL_MS,
    concurrency: vars.LOG_INGEST_CONCURRENCY,
    writers: vars.LOG_INGEST_WRITERS,
    retryMaxMs: vars.LOG_INGEST_RETRY_MAX_MS,
    rollupFoldMs: vars.LOG_INGEST_ROLLUP_FOLD_MS,
    nice: vars.LOG_INGEST_NICE,
    logLevel: vars.LOG_LEVEL,
  }));

export type LogIngestConfig = z.output<typeof logIngestConfigSchema>;

/** The log-ingest configuration from the environment (and `.env`); throws a one-line ConfigError. */
export function loadLogIngestConfig(source: NodeJS.ProcessEnv = process.env): LogIngestConfig {
  return loadConfig(logIngestConfigSchema, source);
}
