import { createLogger, DependencyError, type Logger } from '@flowgate/platform';
import { stopKafkajsIdleLoop } from '@flowgate/platform/kafkajs';
import { Kafka, logLevel, Partitioners, type Consumer } from 'kafkajs';
import { Pool } from 'pg';
import type { Registry } from 'prom-client';
import type { LogIngestConfig } from './config';
import { DeadLetterPublisher } from './dead-letter.publisher';
import { DependencyProbes, type DependencyState } from './dependency-probes';
import { kafkaLogCreator } from './kafka-logger';
import { consumerLag, ensureTopics } from './kafka-topics';
import { createLogIngestMetrics } from './log-ingest.metrics';
import { RequestLogBatchProcessor } from './request-log.batch-processor';
import { PartitionStatistics } from './partition-statistics';
import { RequestLogRepository } from './request-log.repository';
import { RollupFold } from './rollup-fold';
import { withTimeout } from './with-timeout';

export interface LogIngest {
  /** Checks PostgreSQL and Kafka, creates missing topics, joins the consumer group. */
  start(): Promise<void>;
  /** Finishes the batch in hand (writing and committing it), leaves the group, closes clients. */
  stop(): Promise<void>;
  /** Prometheus registry of this instance. */
  readonly metrics: Registry;
  /**
   * For `/readyz`: ready when Kafka answers, the consumer is in its group, PostgreSQL answers
   * and the last write succeeded; `checks` names what is down.
   */
  readiness(): Promise<DependencyState>;
}

const CONSUMER_RESTART_DELAY_MS = 5000;
const LAG_TIMEOUT_MS = 2000;
/** A readiness probe slower than this counts as down; a result serves scrapes for a second. */
const PROBE_TIMEOUT_MS = 2000;
const PROBE_CACHE_MS = 1000;

/**
 * The log-ingest service: a Kafka consumer group that stores request-log events in
 * request_logs exactly once and keeps api_keys.last_used_at current.
 */
/** `rollups: false` only for the benchmark's baseline (stats need the rollups). */
export function createLogIngest(config: LogIngestConfig, options: { logger?: Logger; rollups?: boolean } = {}): LogIngest {
  const logger = options.logger ?? createLogger('log-ingest', config.logLevel);
  // Without it, every broker connection spins a 1 ms timer while idle (see the file).
  if (!stopKafkajsIdleLoop()) logger.warn('kafkajs request queue not patched (unknown version): idle connections may poll every millisecond');
  const kafka = new Kafka({
    clientId: 'flowgate-log-ingest',
    brokers: config.kafkaBrokers,
    logLevel: logLevel.WARN,
    logCreator: kafkaLogCreator(logger),
    retry: { initialRetryTime: 300, retries: 8 },
  });
  const admin = kafka.admin();
  // Its own client for the lag metric, failing fast: a scrape must not hang while Kafka is away.
  const lagAdmin = kafka.admin({ retry: { retries: 0 } });
  const producer = kafka.producer({ allowAutoTopicCreation: false, createPartitioner: Partitioners.DefaultPartitioner });
  const pool = new Pool({
    connectionString: config.databaseUrl,
    // The grouped writers, plus one for a batch written on its own and one for the rest.
    max: config.writers + 2,
    application_name: 'flowgate-log-ingest',
    connectionTimeoutMillis: 5000,
    // A write that never answers (a dead connection, a hung server) fails and is retried
    // instead of holding the pipeline forever.
    statement_timeout: 60000,
    query_timeout: 70000,
    keepAlive: true,
  });
  // An idle connection dropped by the server (PostgreSQL restarting) is not a crash.
  pool.on('error', (error) => logger.warn({ err: error }, 'idle PostgreSQL connection closed'));

  const metrics = createLogIngestMetrics(() => withTimeout(consumerLag(lagAdmin, config.groupId, config.topic), LAG_TIMEOUT_MS));
  const repository = new RequestLogRepository(pool, { rollups: options.rollups, statistics: new PartitionStatistics(pool, logger) });
  const fold = new RollupFold(pool, logger, config.rollupFoldMs);
  let databaseAvailable = true;
  const processor = new RequestLogBatchProcessor({
    repository,
    deadLetters: new DeadLetterPublisher(producer, config.deadLetterTopic, config.topic),
    metrics,
    logger,
    retryMaxMs: config.retryMaxMs,
    writers: config.writers,
    commitIntervalMs: config.commitIntervalMs,
    onDatabaseAvailability: (available) => {
      databaseAvailable = available;
    },
  });

  const probes = new DependencyProbes(
    { kafka: () => lagAdmin.describeCluster(), postgres: () => pool.query('SELECT 1') },
    { timeoutMs: PROBE_TIMEOUT_MS, cacheMs: PROBE_CACHE_MS },
  );

  let consumer: Consumer | null = null;
  let joined = false;
  let stopping = false;
  let restartTimer: NodeJS.Timeout | null = null;

  /**
   * Replaces a stopped consumer after a pause, and keeps trying while the broker stays away: a
   * broker that takes longer to come back than the consumer's own retries (a slow or busy
   * machine) must not leave log-ingest without a consumer.
   */
  function restartLater(stopped: Consumer): void {
    restartTimer = setTimeout(() => {
      restartTimer = null;
      void stopped
        .disconnect()
        .catch(() => undefined)
        .then(() => (stopping ? undefined : runConsumer()))
        .catch((error) => {
          logger.error({ err: error }, `could not start a new consumer; trying again in ${CONSUMER_RESTART_DELAY_MS} ms`);
          if (!stopping && consumer) restartLater(consumer);
        });
    }, CONSUMER_RESTART_DELAY_MS);
  }

  async function runConsumer(): Promise<void> {
    const next = kafka.consumer({
      groupId: config.groupId,
      maxWaitTimeInMs: config.maxWaitTimeMs,
      minBytes: config.fetchMinBytes,
      allowAutoTopicCreation: false,
      retry: { initialRetryTime: 300, retries: 8, restartOnFailure: async () => true },
    });
    next.on(next.events.GROUP_JOIN, ({ payload }) => {
      joined = true;
      logger.info({ member: payload.memberId, assignment: payload.memberAssignment }, 'joined the consumer group');
    });
    next.on(next.events.CRASH, ({ payload }) => {
      joined = false;
      if (payload.restart || stopping) return;
      // kafkajs gives up on errors it does not consider retriable; we do not.
      logger.error({ err: payload.error }, `consumer stopped on an error; starting a new one in ${CONSUMER_RESTART_DELAY_MS} ms`);
      restartLater(next);
    });
    consumer = next;
    await next.connect();
    await next.subscribe({ topics: [config.topic], fromBeginning: true });
    await next.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: config.concurrency,
      eachBatch: (payload) => processor.process(payload),
    });
  }

  return {
    metrics: metrics.registry,

    async readiness() {
      const { ready, checks } = await probes.check();
      const postgres = checks.postgres === 'up' && databaseAvailable;
      return {
        ready: ready && postgres && joined && !stopping,
        checks: { kafka: checks.kafka!, consumer_group: joined ? 'up' : 'down', postgres: postgres ? 'up' : 'down' },
      };
    },

    async start() {
      try {
        if (!(await repository.hasSchema())) {
          throw new DependencyError('the database has no request_logs table — run `npm run db:migrate` (DATABASE_URL)');
        }
      } catch (error) {
        if (error instanceof DependencyError) throw error;
        throw new DependencyError(`PostgreSQL refused the connection (${(error as Error).message}) — fix DATABASE_URL`);
      }
      try {
        await admin.connect();
        await ensureTopics(admin, [
          { topic: config.topic, numPartitions: config.topicPartitions },
          { topic: config.deadLetterTopic, numPartitions: 1 },
        ]);
        await producer.connect();
        await lagAdmin.connect();
      } catch (error) {
        throw new DependencyError(`Kafka at ${config.kafkaBrokers.join(',')} failed (${(error as Error).message}) — fix KAFKA_BROKERS`);
      }
      await runConsumer();
      fold.start();
      logger.info({ topic: config.topic, group: config.groupId }, 'consuming request-log events');
    },

    async stop() {
      stopping = true;
      if (restartTimer) clearTimeout(restartTimer);
      // No new fetches; the batches in hand are written and committed, or (while PostgreSQL
      // is down) abandoned uncommitted, to be redelivered to whoever consumes next.
      try {
        consumer?.pause([{ topic: config.topic }]);
      } catch {
        // not running (crashed and not yet restarted): nothing to pause
      }
      await processor.drain();
      await fold.stop();
      await consumer?.disconnect().catch((error) => logger.warn({ err: error }, 'consumer disconnect failed'));
      await producer.disconnect().catch(() => undefined);
      await admin.disconnect().catch(() => undefined);
      await lagAdmin.disconnect().catch(() => undefined);
      await pool.end().catch(() => undefined);
    },
  };
}
